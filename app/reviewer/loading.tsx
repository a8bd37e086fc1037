import { FunnelSkeleton, TableSkeleton } from "../../components/reviewer/reviewer-skeleton";
import styles from "../../components/reviewer/reviewer.module.css";

/** While the server rebuilds and counts (the first visit rebuilds every run's decisions). */
export default function ReviewerLoading() {
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.title}>Reviewer audit</h1>
        <span className={styles.meta} role="status">
          Rebuilding and counting…
        </span>
      </header>
      <FunnelSkeleton />
      <TableSkeleton />
    </div>
  );
}
