"use client";

import { TRIAGE_KINDS, type TRunTriage, type TTriageKind } from "@/lib/contracts";
import { formatNumber, formatTurn } from "@/lib/format";
import { TRIAGE_KEYS } from "@/lib/keys/triage-keys";
import { TRIAGE_NOUNS } from "./use-triage";
import styles from "./triage.module.css";

const GLYPHS: Record<TTriageKind, string> = { drop: "✕", finding: "⚑", delivery: "▲◆" };
const PLURALS: Record<TTriageKind, string> = {
  drop: "with drops",
  finding: "with findings",
  delivery: "failed/uncertain",
};

export interface TriageBarProps {
  triage: TRunTriage | undefined;
  /** Where the last step went, or why it could not (read out by screen readers). */
  message: string;
  onStep: (kind: TTriageKind, direction: "previous" | "next") => void;
}

/**
 * The run page's triage bar (docs/architecture.md#run-triage), sticky above the charts:
 * for dropped reminders, findings and failed or uncertain deliveries, how many turns have one and
 * buttons (and keys) to the previous and next such turn from the selected one.
 */
export function TriageBar({ triage, message, onStep }: TriageBarProps) {
  return (
    <nav className={styles.bar} aria-label="Triage: step through the turns with problems" data-testid="triage-bar">
      {TRIAGE_KINDS.map((kind) => {
        const step = triage?.steps[kind];
        const keys = TRIAGE_KEYS[kind];
        const count = step?.count ?? 0;
        return (
          <div
            key={kind}
            className={`${styles.group} ${styles[kind]}`}
            role="group"
            aria-label={`${formatNumber(count)} turns ${PLURALS[kind]}`}
          >
            <span className={styles.label} aria-hidden="true">
              <span className={styles.glyph}>{GLYPHS[kind]}</span>
              <strong className={styles.count} data-testid={`triage-count-${kind}`}>
                {triage ? formatNumber(count) : "…"}
              </strong>{" "}
              {PLURALS[kind]}
            </span>
            {(["previous", "next"] as const).map((direction) => {
              const turn = step?.[direction] ?? null;
              const name = `${direction === "previous" ? "Previous" : "Next"} ${TRIAGE_NOUNS[kind]}`;
              return (
                <button
                  key={direction}
                  type="button"
                  className={styles.step}
                  disabled={!triage || turn === null}
                  onClick={() => onStep(kind, direction)}
                  aria-keyshortcuts={keys[direction]}
                  title={`${name} (key ${keys[direction]})${turn === null ? ": none" : `: ${formatTurn(turn)}`}`}
                >
                  {/* No aria-label: the name is the content, the key (what is seen) included (WCAG 2.5.3). */}
                  {direction === "previous" ? <span aria-hidden="true">‹ </span> : null}
                  <span className="sr-only">{`${turn === null ? name : `${name}: ${formatTurn(turn)}`}, key `}</span>
                  <kbd>{keys[direction]}</kbd>
                  {direction === "next" ? <span aria-hidden="true"> ›</span> : null}
                </button>
              );
            })}
          </div>
        );
      })}
      {triage && !triage.ready ? <span className={styles.note}>Counting: the run is being rebuilt with triage marks.</span> : null}
      <span className={styles.message} role="status" aria-live="polite" data-testid="triage-message">
        {message}
      </span>
    </nav>
  );
}
