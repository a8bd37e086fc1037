import Link from "next/link";
import styles from "./reviewer.module.css";

type Props = {
  project: string;
  /** Empty because of the filters (or a page past the end), not because there are no candidates. */
  filtered: boolean;
  violationsOnly: boolean;
  clearHref: string;
  allCandidatesHref: string;
};

/** No candidates to show: say why, and what to do. */
export function ReviewerEmpty({ project, filtered, violationsOnly, clearHref, allCandidatesHref }: Props) {
  return (
    <section className={styles.empty} aria-labelledby="reviewer-empty-title">
      <span className={styles.emptyIcon} aria-hidden="true">
        {violationsOnly ? "✓" : "○"}
      </span>
      <div>
        <h2 id="reviewer-empty-title" className={styles.emptyTitle}>
          {violationsOnly
            ? "No Reviewer violations in these runs"
            : filtered
              ? "No Reviewer candidates match these filters"
              : `No Reviewer candidates in project “${project}” yet`}
        </h2>
        <p className={styles.emptyText}>
          {violationsOnly ? (
            <>
              Every dispatch had a granted admission, none ran alongside another, every recorded admission follows R13, and no candidate was
              cancelled by a reminder&apos;s fate. <Link href={allCandidatesHref}>Show every candidate</Link>.
            </>
          ) : filtered ? (
            <>
              Try a wider time range or another agent or model, or <Link href={clearHref}>clear the filters</Link>.
            </>
          ) : (
            <>
              A candidate is due when a run&apos;s policy has a <code>reviewer</code> section and the run reaches a new checkpoint (R7,
              R13). Runs send <code>reviewer.candidate</code>, <code>reviewer.admission</code>, <code>reviewer.dispatched</code> and{" "}
              <code>reviewer.completed</code> events; see the <Link href="/runs">runs</Link>.
            </>
          )}
        </p>
      </div>
    </section>
  );
}
