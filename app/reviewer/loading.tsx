import { FunnelSkeleton, TableSkeleton } from "@/components/reviewer/reviewer-skeleton";
import { listPageStyles as frame } from "@/components/ui/list-page";

/** While the server rebuilds and counts (the first visit rebuilds every run's decisions). */
export default function ReviewerLoading() {
  return (
    <div className={frame.page}>
      <header className={frame.header}>
        <div className={frame.heading}>
          <h1 className={frame.title}>Reviewer audit</h1>
          <span className={frame.meta} role="status">
            Rebuilding and counting…
          </span>
        </div>
      </header>
      <FunnelSkeleton />
      <TableSkeleton />
    </div>
  );
}
