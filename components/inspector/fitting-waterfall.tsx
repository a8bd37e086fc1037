import type { TTurnDecision } from "@/lib/contracts";
import { formatBytes, formatPercent } from "@/lib/format";
import { pairLabel } from "@/lib/inspector/labels";
import { barPercent, fittingWaterfall, type FitStep, type Waterfall } from "@/lib/inspector/waterfall";
import { STATUS_MARKS } from "@/components/ui/status-mark";
import { InspectorSection } from "./inspector-section";
import styles from "./fitting.module.css";

/** The final request against its capacity: required bytes, then the free bytes fitting starts with. */
function RequestBar({ waterfall }: { waterfall: Waterfall }) {
  const { requiredBytes, capacityBytes, freeStart } = waterfall;
  if (capacityBytes === null) {
    return (
      <p className={styles.note}>
        Required {formatBytes(requiredBytes)}. No byte limit: the policy has no context section, so every reminder fits (R8).
      </p>
    );
  }
  const ratio = capacityBytes > 0 ? requiredBytes / capacityBytes : null;
  return (
    <div className={styles.requestBar}>
      <div className={styles.requestTrack} aria-hidden="true">
        <span className={styles.requestFill} style={{ width: `${barPercent(requiredBytes, capacityBytes)}%` }} />
      </div>
      <dl className={styles.requestNumbers}>
        <div>
          <dt>required (final request)</dt>
          <dd>{formatBytes(requiredBytes)}</dd>
        </div>
        <div>
          <dt>capacity</dt>
          <dd>{formatBytes(capacityBytes)}</dd>
        </div>
        <div>
          <dt>free for reminders</dt>
          <dd className={freeStart !== null && freeStart < 0 ? styles.negative : undefined}>{formatBytes(freeStart ?? 0)}</dd>
        </div>
        <div>
          <dt>used</dt>
          <dd>{formatPercent(ratio)}</dd>
        </div>
      </dl>
    </div>
  );
}

function StepRow({ step, waterfall }: { step: FitStep; waterfall: Waterfall }) {
  const { scale, limitInScale, freeStart } = waterfall;
  const limitAt = limitInScale ? barPercent(Math.max(0, freeStart ?? 0), scale) : null;
  const label = pairLabel(step.key, step.subject);
  return (
    <li className={styles.step} data-status={step.status} data-fits={step.fits}>
      <span className={styles.stepLabel}>
        <span className={`${styles.stepMark} status-${step.status}`} aria-hidden="true">
          <span className="status-glyph">{STATUS_MARKS[step.status]}</span>
        </span>
        {label}
      </span>
      <span className={styles.track} aria-hidden="true">
        {step.offset > 0 ? <span className={styles.used} style={{ width: `${barPercent(step.offset, scale)}%` }} /> : null}
        <span
          className={step.fits ? styles.segment : styles.segmentDropped}
          style={{ left: `${barPercent(step.offset, scale)}%`, width: `${Math.max(0.8, barPercent(step.bytes, scale))}%` }}
        />
        {limitAt !== null ? <span className={styles.limit} style={{ left: `${limitAt}%` }} /> : null}
      </span>
      <span className={styles.stepResult}>
        {step.freeBefore === null ? (
          <>{formatBytes(step.bytes)} · fits (no byte limit)</>
        ) : step.fits ? (
          <>
            {formatBytes(step.bytes)} → <strong>{formatBytes(step.freeAfter ?? 0)}</strong> left
          </>
        ) : (
          <>
            <strong>dropped</strong>: needs {formatBytes(step.bytes)}, {formatBytes(step.freeBefore)} free
          </>
        )}
      </span>
    </li>
  );
}

/**
 * R8 step by step: the final request's required bytes, then each reminder's cost in presentation
 * order, the free bytes left after each, and where drops happened. Bars are drawn on the free
 * region (the dashed line is where the free bytes end); numbers are exact bytes.
 */
export function FittingWaterfall({
  decision,
  id = "inspector-fitting",
  title = "Fitting",
}: {
  decision: TTurnDecision;
  id?: string;
  title?: string;
}) {
  const waterfall = fittingWaterfall(decision);
  const { steps, freeStart, freeEnd, includedBytes, droppedCount, limitInScale, capacityBytes } = waterfall;
  return (
    <InspectorSection id={id} title={title} meta="R8 · first fit, in bytes">
      <div className={styles.waterfall}>
        <RequestBar waterfall={waterfall} />
        {steps.length === 0 ? (
          <p className={styles.empty}>Nothing to fit.</p>
        ) : (
          <>
            <ol className={styles.steps} aria-label={`${title} steps`}>
              <li className={styles.stepStart}>
                <span className={styles.stepLabel}>start</span>
                <span className={styles.scaleNote}>
                  {capacityBytes === null
                    ? "bars: reminder costs"
                    : limitInScale
                      ? "bars: the free region; ┆ = end of the free bytes"
                      : `bars: reminder costs (${formatBytes(freeStart ?? 0)} free is off scale)`}
                </span>
                <span className={styles.stepResult}>{freeStart === null ? "no byte limit" : `${formatBytes(freeStart)} free`}</span>
              </li>
              {steps.map((step) => (
                <StepRow key={`${step.key}:${step.subject ?? ""}`} step={step} waterfall={waterfall} />
              ))}
            </ol>
            <p className={styles.summary}>
              {formatBytes(includedBytes)} of reminders included · {droppedCount} dropped
              {freeEnd !== null ? <> · {formatBytes(freeEnd)} free after fitting</> : null}
            </p>
          </>
        )}
      </div>
    </InspectorSection>
  );
}
