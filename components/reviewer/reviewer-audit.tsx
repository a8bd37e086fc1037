"use client";

import { useQuery } from "@tanstack/react-query";
import { formatNumber } from "@/lib/format";
import { reviewerCandidatesQuery, reviewerFunnelQuery } from "@/lib/queries/reviewer";
import {
  CLEARED,
  hasReviewerFilters,
  reviewerHref,
  reviewerPageSize,
  type ReviewerFilters,
  type ReviewerView,
} from "@/lib/queries/reviewer-url";
import { queueHref } from "@/lib/queries/review-queue-url";
import { runFacetsQuery } from "@/lib/queries/runs";
import Link from "next/link";
import { ReviewerEmpty } from "./reviewer-empty";
import { ReviewerFilterBar } from "./reviewer-filters";
import { ReviewerFunnelPanel } from "./reviewer-funnel";
import { FunnelSkeleton, TableSkeleton } from "./reviewer-skeleton";
import { REVIEWER_SORT_TEXT, ReviewerTable } from "./reviewer-table";
import { JumpKeys } from "@/components/ui/jump-keys";
import { ListHeader, ListPager, listPageStyles as frame, LoadError } from "@/components/ui/list-page";
import styles from "./reviewer.module.css";
import { useReviewerNavigation } from "./use-reviewer-navigation";

type Props = {
  project: string;
  /** The URL as the controls show it, and the API filters it stands for (parsed on the server). */
  view: ReviewerView;
  filters: ReviewerFilters;
};

/** The Reviewer audit: filters, the funnel across the selected runs, and one row per candidate. */
export function ReviewerAudit({ project, view: serverView, filters }: Props) {
  const { view, navigate, pending } = useReviewerNavigation(serverView);
  const facets = useQuery(runFacetsQuery());
  const funnel = useQuery(reviewerFunnelQuery(filters));
  const page = useQuery(reviewerCandidatesQuery(filters, reviewerPageSize(serverView)));
  const rows = page.data?.rows;
  const total = funnel.data?.candidates.total;
  const firstHref = reviewerHref(view, { cursor: undefined });

  return (
    <div className={frame.page}>
      <ListHeader
        title="Reviewer audit"
        pending={pending}
        meta={
          <>
            project <strong>{project}</strong>
            {total !== undefined ? (
              <>
                {" · "}
                {formatNumber(total)} {total === 1 ? "candidate" : "candidates"}
                {view.violations ? " with violations" : ""}
              </>
            ) : null}
          </>
        }
      />
      <p className={styles.intro}>
        Every Reviewer candidate with its recorded admission next to what rule R13 says on that turn&apos;s facts, its dispatches and
        completions. The turn&apos;s review reminder is shown beside it, on its own: a reminder is advice to the model — a dropped one never
        cancels a candidate, a delivered one is never an admission (R12).
      </p>
      <p className={styles.queueLink}>
        <Link href={queueHref({ audit: { ...view, cursor: undefined, sort: undefined, limit: undefined } })} className="button">
          Open the review queue
        </Link>{" "}
        to give the dispatches and violations over these filters a verdict, one at a time from the keyboard.
      </p>

      <ReviewerFilterBar view={view} filters={filters} facets={facets.data} navigate={navigate} runTask={rows?.[0]?.task ?? null} />

      {funnel.isError ? (
        <LoadError title="The funnel could not be loaded" message={funnel.error.message} onRetry={() => void funnel.refetch()} />
      ) : funnel.data ? (
        <ReviewerFunnelPanel funnel={funnel.data} view={view} dimmed={pending} />
      ) : (
        <FunnelSkeleton />
      )}

      {page.isError ? (
        <LoadError
          title="The candidates could not be loaded"
          message={page.error.message}
          onRetry={() => void page.refetch()}
          firstHref={view.cursor ? firstHref : undefined}
        />
      ) : rows === undefined ? (
        <TableSkeleton />
      ) : rows.length === 0 ? (
        <ReviewerEmpty
          project={project}
          filtered={hasReviewerFilters(view) || Boolean(view.cursor)}
          violationsOnly={Boolean(view.violations)}
          clearHref={reviewerHref(view, CLEARED)}
          allCandidatesHref={reviewerHref(view, { violations: undefined })}
        />
      ) : (
        <section className={frame.panel} aria-labelledby="candidates-title">
          <header className="panel-header">
            <h2 id="candidates-title">Candidates</h2>
            <span className="panel-meta">one row per Reviewer candidate · {REVIEWER_SORT_TEXT[view.sort ?? "newest"]}</span>
            <JumpKeys kind="violation" noun="violation" />
          </header>
          <ReviewerTable rows={rows} view={view} dimmed={pending} navigate={navigate} />
          <ListPager
            info={
              <>
                {view.cursor ? "A later page" : "First page"}: {formatNumber(rows.length)} {rows.length === 1 ? "candidate" : "candidates"}
                {total !== undefined ? ` of ${formatNumber(total)}` : ""}
              </>
            }
            firstHref={view.cursor ? firstHref : null}
            nextHref={page.data?.nextCursor ? reviewerHref(view, { cursor: page.data.nextCursor }) : null}
          />
        </section>
      )}
    </div>
  );
}
