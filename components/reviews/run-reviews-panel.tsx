"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatCount, formatTurn } from "@/lib/format";
import { queueHref } from "@/lib/queries/review-queue-url";
import { runTurnHref } from "@/lib/queries/reviewer-url";
import { runReviewsQuery } from "@/lib/queries/reviews";
import { useFormatInstant } from "@/components/layout/time-zone";
import { Panel } from "@/components/ui/panel";
import { VERDICT_TEXT, VerdictMark } from "./verdict";
import styles from "./run-reviews.module.css";

/** The run page's review verdicts: each reviewed (or assigned) Reviewer candidate of the run, in turn order. */
export function RunReviewsPanel({ runId }: { runId: string }) {
  const reviews = useQuery(runReviewsQuery(runId));
  const formatInstant = useFormatInstant();
  const queue = queueHref({ audit: { run: runId }, status: "all" });
  const list = reviews.data?.reviews;
  return (
    <Panel
      id="run-reviews"
      title="Review verdicts"
      meta={list ? `${formatCount(list.filter((r) => r.verdict).length, "verdict")} on Reviewer candidates` : undefined}
    >
      {reviews.isError ? (
        <p role="alert">The reviews could not be loaded: {reviews.error.message}</p>
      ) : !list ? (
        <p className={styles.quiet}>Loading the reviews…</p>
      ) : list.length === 0 ? (
        <p className={styles.quiet}>
          No verdicts on this run&apos;s Reviewer dispatches yet. <Link href={queue}>Review this run in the queue</Link>.
        </p>
      ) : (
        <>
          <ul className={styles.list}>
            {list.map((review) => (
              <li key={review.reviewKey}>
                <Link href={runTurnHref(runId, review.turn)}>{formatTurn(review.turn)}</Link>{" "}
                {review.verdict ? (
                  <>
                    <VerdictMark verdict={review.verdict} /> <strong>{VERDICT_TEXT[review.verdict].label}</strong>
                    {review.reviewer ? ` — ${review.reviewer.name}` : ""}
                    {review.reviewedAt ? <span className={styles.quiet}>, {formatInstant(review.reviewedAt)}</span> : null}
                  </>
                ) : (
                  <span className={styles.quiet}>no verdict yet</span>
                )}
                {review.assignee ? <span className={styles.quiet}> · assigned to {review.assignee.name}</span> : null}
                {review.comment ? <span className={styles.comment}>{review.comment}</span> : null}
              </li>
            ))}
          </ul>
          {reviews.data?.nextCursor ? <p className={styles.quiet}>More reviews are in the queue.</p> : null}
          <p>
            <Link href={queue}>Open this run in the review queue</Link>
          </p>
        </>
      )}
    </Panel>
  );
}
