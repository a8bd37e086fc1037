import type { TMeterProjection } from "@/lib/contracts";
import { projectionText } from "@/lib/run-view/projection-text";
import styles from "./run.module.css";

/** A live run's meter at its recent pace (docs/projection.md): a projection, not a promise. */
export function ProjectionLine({ projection, first }: { projection: TMeterProjection; first: boolean }) {
  return (
    <p className={styles.projection} data-testid={`projection-${projection.meter}`}>
      <span className={styles.projectionTag}>At its recent pace</span> {projectionText(projection)}
      {first ? <strong className={styles.projectionFirst}> Runs out first.</strong> : null}
    </p>
  );
}
