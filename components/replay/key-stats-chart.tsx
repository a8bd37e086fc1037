import type { TReplayResult } from "@/lib/contracts";
import { formatNumber } from "@/lib/format";
import { keyMultiples, type KeyMeasure } from "@/lib/replay/key-stats";
import { ChartFigure } from "@/components/ui/chart-figure";
import styles from "./replay.module.css";

const TITLES: Record<KeyMeasure, string> = { delivered: "Delivered reminders", dropped: "Dropped reminders (capacity)" };

/**
 * One measure per key as small multiples: each key its own little chart on its own scale (0 to
 * that key's larger side), baseline bar over what-if bar, with the change (Δ) in words, so that a
 * key with thousands of reminders never flattens a change of 2 → 0 in another. Every count is in
 * reminders; counts of different keys are never summed.
 */
export function KeyStatsChart({ keys, measure }: { keys: TReplayResult["keys"]; measure: KeyMeasure }) {
  const multiples = keyMultiples(keys, measure);
  const summary = multiples.map((m) => `${m.key} ${formatNumber(m.baseline)} → ${formatNumber(m.whatIf)}`).join(", ");
  return (
    <ChartFigure
      className={styles.chart}
      caption={`${TITLES[measure]} per key`}
      unit="reminders"
      summary={`Baseline → what-if, per key: ${summary}. Each key is drawn on its own scale.`}
      drawingIsText
      table={{
        columns: [
          { key: "key", label: "Key" },
          { key: "baseline", label: "Baseline", unit: "reminders" },
          { key: "whatIf", label: "What-if", unit: "reminders" },
          { key: "delta", label: "Change", unit: "reminders" },
        ],
        rows: multiples.map((m) => ({
          key: m.key,
          baseline: formatNumber(m.baseline),
          whatIf: formatNumber(m.whatIf),
          delta: m.deltaText,
        })),
      }}
    >
      <div className={styles.multiples}>
        {multiples.map((m) => (
          <figure
            key={m.key}
            className={styles.multiple}
            data-key={m.key}
            aria-label={`${m.key}: baseline ${formatNumber(m.baseline)}, what-if ${formatNumber(m.whatIf)} ${measure} reminders (${m.deltaText})`}
          >
            <figcaption>
              <strong>{m.key}</strong> <span className="unit">reminders, 0–{formatNumber(m.scaleMax)}</span>
            </figcaption>
            <div className={styles.barRow} aria-hidden="true">
              <span className={styles.barLabel}>Baseline</span>
              <span className={styles.barTrack}>
                <span className={styles.barBaseline} style={{ width: `${m.baselineShare * 100}%` }} />
              </span>
              <span className={styles.barValue}>{formatNumber(m.baseline)}</span>
            </div>
            <div className={styles.barRow} aria-hidden="true">
              <span className={styles.barLabel}>What-if</span>
              <span className={styles.barTrack}>
                <span
                  className={measure === "dropped" ? styles.barDropped : styles.barDelivered}
                  style={{ width: `${m.whatIfShare * 100}%` }}
                />
              </span>
              <span className={styles.barValue}>{formatNumber(m.whatIf)}</span>
            </div>
            <p className={styles.delta} data-testid={`delta-${measure}-${m.key}`}>
              Δ {m.deltaText}
            </p>
          </figure>
        ))}
      </div>
    </ChartFigure>
  );
}
