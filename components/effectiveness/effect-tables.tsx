import type { TEffectRow, TFatigueRow } from "@/lib/contracts";
import { differenceText, rateText } from "@/lib/charts/effect";
import { formatBytes, formatNumber } from "@/lib/format";

/**
 * Contract §10's delivered vs dropped rows: per key, stage (a review suggestion's: every checkpoint
 * together) and context stage, each status's follow-up
 * rate with its counts and interval, and their difference. The trends page's and the run page's table.
 */
export function EffectTable({ rows, caption }: { rows: readonly TEffectRow[]; caption: string }) {
  return (
    <table className="data-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">key</th>
          <th scope="col">stage</th>
          <th scope="col">context stage</th>
          <th scope="col">delivered: followed</th>
          <th scope="col">dropped: followed</th>
          <th scope="col">difference (delivered − dropped)</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.key}.${r.stage}.${r.contextStage}`}>
            <th scope="row">
              {r.key} <span className="muted">{r.kind}</span>
            </th>
            <td>{r.stage === null ? "every checkpoint" : r.stage}</td>
            <td>{r.contextStage === null ? "all" : r.contextStage}</td>
            <td>{rateText(r.deliveredRate, r.deliveredFollowed, r.delivered)}</td>
            <td>{rateText(r.droppedRate, r.droppedFollowed, r.dropped)}</td>
            <td>{differenceText(r.difference)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Contract §10's reminder fatigue per key. Over many runs the last column counts the runs a key
 * dominated; for one run (`oneRun`) it says whether the key took most of the run's reminder bytes.
 */
export function FatigueTable({ rows, oneRun = false }: { rows: readonly TFatigueRow[]; oneRun?: boolean }) {
  return (
    <table className="data-table">
      <thead>
        <tr>
          <th scope="col">key</th>
          <th scope="col">deliveries (reminders)</th>
          <th scope="col">repeats (reminders)</th>
          <th scope="col">turns between repeats (mean)</th>
          <th scope="col">delivered (bytes)</th>
          <th scope="col">share of capacity</th>
          <th scope="col">{oneRun ? "most of the run's reminder bytes" : "runs it dominated"}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.key}</th>
            <td>{formatNumber(row.deliveries)}</td>
            <td>{formatNumber(row.repeats)}</td>
            <td>{row.meanTurnsBetweenRepeats === null ? "–" : formatNumber(row.meanTurnsBetweenRepeats, 1)}</td>
            <td>{formatBytes(row.bytes)}</td>
            <td>
              {row.capacityShare === null
                ? "–"
                : `${formatNumber(row.capacityShare * 100, 2)}% (${formatBytes(row.contextBytes)} of ${formatBytes(row.capacityBytes)})`}
            </td>
            <td>
              {oneRun
                ? row.dominatedRuns > 0
                  ? "yes"
                  : "no"
                : `${formatNumber(row.dominatedRuns)} of ${formatNumber(row.runsWithReminderBytes)} runs`}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
