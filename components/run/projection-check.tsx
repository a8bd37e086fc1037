import type { TProjectedMeter, TRunProjectionCheck } from "@/lib/contracts";
import { checkText } from "@/lib/run-view/projection-text";
import styles from "./run.module.css";

/**
 * A finished run's meter: how far off its projection was each time the meter reached a stage or its
 * limit (docs/projection.md#how-far-off), so the projection's quality is there to judge.
 */
export function ProjectionCheckList({ check, meter }: { check: TRunProjectionCheck; meter: TProjectedMeter }) {
  const mine = check.checks.filter((c) => c.meter === meter);
  if (mine.length === 0) return null;
  const inside = mine.filter((c) => c.inside).length;
  return (
    <div className={styles.projection} data-testid={`projection-check-${meter}`}>
      <p>
        <span className={styles.projectionTag}>How far off the projection was</span> made {check.leadTurns} turns before each stage:{" "}
        {inside} of {mine.length} reached inside its 95% interval.
      </p>
      <ul className={styles.projectionChecks}>
        {mine.map((c) => (
          <li key={`${c.stage ?? "limit"}`}>{checkText(c)}</li>
        ))}
      </ul>
    </div>
  );
}
