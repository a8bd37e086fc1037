import styles from "./run.module.css";

/** A calm placeholder with the panel's shape while its data loads. */
export function PanelSkeleton({ label, height }: { label: string; height: number }) {
  return (
    <div className={styles.skeleton} style={{ height }} role="status" aria-label={`Loading ${label}`}>
      <span className={styles.skeletonBar} />
      <span className={styles.skeletonBar} style={{ width: "62%" }} />
      <span className={styles.skeletonBar} style={{ width: "80%" }} />
    </div>
  );
}

/** A panel that could not load: what failed, the server's reason, and a retry. */
export function PanelError({ what, error, onRetry }: { what: string; error: unknown; onRetry?: () => void }) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className={styles.error} role="alert">
      <strong>Could not load {what}.</strong> <span>{message}</span>
      {onRetry ? (
        <button type="button" className={styles.retry} onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}
