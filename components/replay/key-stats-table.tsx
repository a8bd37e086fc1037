import type { TReplayResult } from "@/lib/contracts";
import { formatBytes, formatNumber, formatPercent } from "@/lib/format";
import styles from "./replay.module.css";
import { ScrollRegion } from "@/components/ui/scroll-region";

type KeyRow = TReplayResult["keys"][number];

/** Per key: baseline → what-if for candidates, delivered, dropped, bytes and drop rate, each with its change. */
export function KeyStatsTable({ keys }: { keys: readonly KeyRow[] }) {
  return (
    <ScrollRegion label="Per key, baseline vs what-if">
      <table className={`data-table ${styles.statsTable}`} aria-label="Per key, baseline vs what-if">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Candidates</th>
            <th scope="col">Delivered</th>
            <th scope="col">Dropped</th>
            <th scope="col">Bytes included</th>
            <th scope="col">Drop rate</th>
          </tr>
        </thead>
        <tbody>
          {keys.map(({ key, baseline, whatIf }) => (
            <tr key={key} data-key={key}>
              <th scope="row">{key}</th>
              <Cell before={baseline.candidates} after={whatIf.candidates} format={formatNumber} />
              <Cell before={baseline.delivered} after={whatIf.delivered} format={formatNumber} better="up" testId={`delivered-${key}`} />
              <Cell before={baseline.dropped} after={whatIf.dropped} format={formatNumber} better="down" testId={`dropped-${key}`} />
              <Cell before={baseline.bytesIncluded} after={whatIf.bytesIncluded} format={formatBytes} />
              <td>
                {formatRate(baseline.dropRate)} → {formatRate(whatIf.dropRate)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className={styles.unitNote}>
        Counts are reminders; bytes are the reminders&apos; cost in the request (text + newline). Baseline: each run&apos;s own copy and
        policy, as stored.
      </p>
    </ScrollRegion>
  );
}

function Cell({
  before,
  after,
  format,
  better,
  testId,
}: {
  before: number;
  after: number;
  format: (n: number) => string;
  /** Which direction is good news, to colour the change (it is also written with a sign). */
  better?: "up" | "down";
  testId?: string;
}) {
  const delta = after - before;
  const tone = !better || delta === 0 ? "" : delta > 0 === (better === "up") ? styles.good : styles.bad;
  return (
    <td data-testid={testId}>
      <span className={styles.before}>{format(before)}</span> → <strong>{format(after)}</strong>{" "}
      {delta !== 0 ? (
        <span className={`${styles.delta} ${tone}`}>
          ({delta > 0 ? "+" : "−"}
          {format(Math.abs(delta))})
        </span>
      ) : (
        <span className={styles.delta}>(=)</span>
      )}
    </td>
  );
}

function formatRate(rate: number | null): string {
  return rate === null ? "—" : formatPercent(rate, { digits: 1 });
}
