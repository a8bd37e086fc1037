import type { TEventOf, TTurnDecision } from "@/lib/contracts";
import { formatBytes, formatPercent } from "@/lib/format";
import { barPercent } from "@/lib/inspector/waterfall";
import { InspectorSection } from "./inspector-section";
import { PartsBreakdown } from "./parts-breakdown";
import styles from "./record.module.css";

type Props = {
  decision: TTurnDecision | null;
  compactions: readonly TEventOf<"context.compaction">[];
  finals: readonly TEventOf<"request.final">[];
};

function SizeBar({
  label,
  bytes,
  scale,
  capacity,
  tone,
}: {
  label: string;
  bytes: number;
  scale: number;
  capacity: number | null;
  tone: string;
}) {
  return (
    <li className={styles.sizeRow} data-tone={tone}>
      <span className={styles.sizeLabel}>{label}</span>
      <span className={styles.sizeTrack} aria-hidden="true">
        <span className={styles.sizeFill} style={{ width: `${barPercent(bytes, scale)}%` }} />
        {capacity !== null ? <span className={styles.sizeCap} style={{ left: `${barPercent(capacity, scale)}%` }} /> : null}
      </span>
      <span className={styles.num}>{formatBytes(bytes)}</span>
      <span className={styles.faint}>{capacity !== null && capacity > 0 ? formatPercent(bytes / capacity) : ""}</span>
    </li>
  );
}

/**
 * The compaction candidate vs the request that was sent (R9): stage and fitting measure the final
 * request's required bytes, never a rolled-back candidate's size.
 */
export function ContextSection({ decision, compactions, finals }: Props) {
  const last = compactions.at(-1);
  const finalBytes = decision?.requiredBytes ?? finals.at(-1)?.body.requiredBytes ?? null;
  const capacity = decision?.capacityBytes ?? null;
  const lastFinal = finals.at(-1)?.body;
  const scale = Math.max(1, capacity ?? 0, finalBytes ?? 0, ...compactions.flatMap((c) => [c.body.originalBytes, c.body.candidateBytes]));
  return (
    <InspectorSection id="inspector-context" title="Final request and compaction" meta="R9 · bytes">
      {finalBytes === null ? (
        <p className={styles.faintBlock}>No request.final on this turn: its request size is unknown.</p>
      ) : (
        <p className={styles.lead}>
          Stage and fitting used the final request: <strong>{formatBytes(finalBytes)}</strong> required
          {finals.length > 1 ? ` (the last of ${finals.length} request.final events)` : ""}.
        </p>
      )}
      {finalBytes !== null ? (
        <PartsBreakdown
          requiredBytes={finalBytes}
          parts={decision?.contextParts ?? lastFinal?.contextParts}
          capacityBytes={capacity}
          reminders={decision?.reminders ?? []}
          providerTokens={lastFinal?.providerTokens}
          providerCachedTokens={lastFinal?.providerCachedTokens}
        />
      ) : null}
      {last ? (
        <>
          <ul className={styles.sizes} aria-label="Compaction sizes">
            <SizeBar label="original" bytes={last.body.originalBytes} scale={scale} capacity={capacity} tone="original" />
            <SizeBar
              label={`candidate · ${last.body.outcome === "adopted" ? "adopted" : "rolled back"}`}
              bytes={last.body.candidateBytes}
              scale={scale}
              capacity={capacity}
              tone={last.body.outcome}
            />
            {finalBytes !== null ? (
              <SizeBar label="final (used)" bytes={finalBytes} scale={scale} capacity={capacity} tone="final" />
            ) : null}
          </ul>
          <p className={styles.explain}>
            {last.body.outcome === "rolled_back"
              ? `The candidate (${formatBytes(last.body.candidateBytes)}) was rolled back, so it was not used: stage and fitting use the final request's size${finalBytes === null ? "" : ` (${formatBytes(finalBytes)}, from request.final)`}, never the candidate's.`
              : `The candidate was adopted: the request that was sent measures ${finalBytes === null ? "its final size" : formatBytes(finalBytes)}.`}
            {compactions.length > 1 ? ` The turn had ${compactions.length} compactions; the last one is shown.` : ""}
            {capacity !== null ? <span className={styles.faint}> The dotted line is the capacity ({formatBytes(capacity)}).</span> : null}
          </p>
        </>
      ) : (
        <p className={styles.faintBlock}>No compaction on this turn.</p>
      )}
    </InspectorSection>
  );
}
