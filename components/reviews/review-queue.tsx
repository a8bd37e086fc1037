"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useEffect, useRef, useState } from "react";
import type { TReview, TReviewerListRow, TReviewVerdict } from "@/lib/contracts";
import { formatNumber, formatTurn } from "@/lib/format";
import { keyPressOf } from "@/lib/keys/key-press";
import { reviewKeyAction } from "@/lib/keys/review-keys";
import { ApiRequestError } from "@/lib/queries/api-fetch";
import { membersQuery } from "@/lib/queries/members";
import { auditHrefOf, queueHref, QUEUE_PAGE_SIZE, type QueueView } from "@/lib/queries/review-queue-url";
import { reviewerCandidatesQuery } from "@/lib/queries/reviewer";
import { reviewerExportHref, type ReviewerFilters } from "@/lib/queries/reviewer-url";
import { reviewKeys, reviewProgressQuery, reviewQuery, updateReview } from "@/lib/queries/reviews";
import { ListHeader, listPageStyles as frame, LoadError } from "@/components/ui/list-page";
import { useHydrated } from "@/components/ui/use-hydrated";
import { QueueItem } from "./queue-item";
import { VERDICT_TEXT, VerdictMark } from "./verdict";
import styles from "./review-queue.module.css";

type Props = {
  project: string;
  view: QueueView;
  filters: ReviewerFilters;
  /** The signed-in person (null for a key's session: no "me"). */
  me: { id: string; name: string } | null;
  /** The caller may give verdicts and assign (a member or admin, or a key that may write). */
  canWrite: boolean;
};

/** A row's place in the list: its run and its key within the run. */
const idOf = (row: TReviewerListRow) => `${row.runId}\u0000${row.reviewKey}`;

/**
 * The review queue: the Reviewer candidates that were dispatched, flagged by the rules, or due by
 * the rebuild only, one at a time with a verdict, a comment and an assignee; `j`/`k` move, `1`–`3`
 * give a verdict and go on to the next open one. The list a page shows stays as it was loaded while
 * the person works through it (a saved verdict updates its row in place), and the progress counts
 * the whole queue over the filters.
 */
export function ReviewQueue({ project, view, filters, me, canWrite }: Props) {
  const client = useQueryClient();
  const hydrated = useHydrated() ? "true" : undefined;
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const pageQuery = reviewerCandidatesQuery({ ...filters, cursor }, QUEUE_PAGE_SIZE);
  const page = useQuery({ ...pageQuery, staleTime: Infinity, refetchOnWindowFocus: false });
  const progress = useQuery(reviewProgressQuery(filters));
  const members = useQuery({ ...membersQuery(), enabled: canWrite });
  const rows = page.data?.rows;
  /** Reviews saved here since the page was loaded, by row. */
  const [saved, setSaved] = useState<ReadonlyMap<string, TReview | null>>(new Map());
  /** The candidate shown, by its id (a list read again after a conflict keeps it, wherever it now is). */
  const [currentId, setCurrentId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const listRef = useRef<HTMLOListElement>(null);
  const commentRef = useRef<HTMLTextAreaElement>(null);

  const reviewOf = useCallback((row: TReviewerListRow) => (saved.has(idOf(row)) ? saved.get(idOf(row))! : row.review), [saved]);
  const found = rows && currentId !== null ? rows.findIndex((row) => idOf(row) === currentId) : -1;
  const index = found >= 0 ? found : 0;
  const current = rows?.[index];
  /** Says `text` in the live region, even when it is what it said last (a screen reader reads a change only). */
  const announce = useCallback((text: string) => setAnnouncement((last) => (text !== "" && last === text ? `${text}\u00a0` : text)), []);

  const focusItem = useCallback(
    (at: number) => {
      if (rows?.[at]) setCurrentId(idOf(rows[at]));
      requestAnimationFrame(() => listRef.current?.querySelectorAll<HTMLButtonElement>("button[data-item]")[at]?.focus());
    },
    [rows],
  );
  /** After a control the save took away (a button that is gone, a disabled select), the focus goes back to the list. */
  const keepFocus = useCallback(() => {
    requestAnimationFrame(() => {
      const active = document.activeElement;
      if (!active || active === document.body)
        listRef.current?.querySelector<HTMLButtonElement>('button[data-item][aria-current="true"]')?.focus();
    });
  }, []);

  const move = useCallback(
    (direction: "previous" | "next") => {
      if (!rows?.length) return;
      const at = direction === "next" ? index + 1 : index - 1;
      if (at < 0 || at >= rows.length) {
        announce(direction === "next" ? "This is the last candidate of the page." : "This is the first candidate.");
        return;
      }
      focusItem(at);
    },
    [rows, index, focusItem, announce],
  );

  const save = useMutation({
    mutationFn: (input: { row: TReviewerListRow; verdict?: TReviewVerdict | null; comment?: string | null; assigneeId?: string | null }) =>
      updateReview(input.row.runId, input.row.reviewKey, {
        verdict: input.verdict,
        comment: input.comment,
        assigneeId: input.assigneeId,
        version: reviewOf(input.row)?.version ?? 0,
      }),
    onSuccess: (review, input) => {
      const id = idOf(input.row);
      setSaved((before) => new Map(before).set(id, review));
      void client.invalidateQueries({ queryKey: ["reviewer", "progress"] });
      void client.invalidateQueries({ queryKey: reviewKeys.run(input.row.runId) });
      if (input.verdict === undefined) {
        announce(review.assignee ? `Assigned to ${review.assignee.name}.` : "Unassigned.");
        keepFocus();
        return;
      }
      const what = input.verdict === null ? "Verdict taken back" : `Saved: ${VERDICT_TEXT[input.verdict].label}`;
      // On to the next candidate of the page without a verdict.
      const from = rows!.findIndex((row) => idOf(row) === id);
      const nextOpen = rows!.findIndex((row, i) => i > from && !reviewOf(row)?.verdict);
      if (input.verdict !== null && nextOpen >= 0) {
        announce(`${what}. Next: candidate ${nextOpen + 1} of ${rows!.length}.`);
        focusItem(nextOpen);
      } else {
        announce(input.verdict !== null ? `${what}. No open candidate left on this page.` : `${what}.`);
        keepFocus();
      }
    },
    onError: (error, input) => {
      announce("");
      if (error instanceof ApiRequestError && error.status === 409) {
        // Someone else's review wins: read it, and show it on the same candidate, in the same place of
        // the list (which, read again, might no longer hold it: an open list drops a reviewed one).
        setCurrentId(idOf(input.row));
        void currentReview(input.row).then(
          (review) => setSaved((before) => new Map(before).set(idOf(input.row), review)),
          () => void client.invalidateQueries({ queryKey: pageQuery.queryKey }),
        );
      }
      keepFocus();
    },
  });

  /** A candidate's review as it stands now, read on its own (its empty review, version 0, while nothing was said of it). */
  const currentReview = useCallback(
    (row: TReviewerListRow): Promise<TReview> => client.fetchQuery({ ...reviewQuery(row.runId, row.reviewKey), staleTime: 0 }),
    [client],
  );

  const giveVerdict = useCallback(
    (verdict: TReviewVerdict | null) => {
      if (!current || !canWrite || save.isPending) return;
      const comment = commentRef.current?.value ?? "";
      save.mutate({ row: current, verdict, comment: comment.trim() === "" ? null : comment });
    },
    [current, canWrite, save],
  );

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const action = reviewKeyAction(keyPressOf(event));
      if (!action) return;
      if (action.kind === "move") move(action.direction);
      else if (action.kind === "verdict") giveVerdict(action.verdict);
      else if (action.kind === "comment") commentRef.current?.focus();
      else if (action.kind === "assignToMe" && me && current && canWrite && !save.isPending)
        save.mutate({ row: current, assigneeId: me.id });
      else return;
      event.preventDefault();
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [move, giveVerdict, me, current, canWrite, save]);

  const total = progress.data?.total;
  const reviewed = progress.data?.reviewed;
  const statusLinks: { status: QueueView["status"]; label: string }[] = [
    { status: undefined, label: "Open" },
    { status: "reviewed", label: "Reviewed" },
    { status: "all", label: "All" },
  ];

  return (
    <div className={frame.page} data-hydrated={hydrated}>
      <ListHeader
        title="Review queue"
        pending={page.isFetching && !page.isLoading}
        meta={
          <>
            project <strong>{project}</strong>
            {" · "}
            <Link href={auditHrefOf(view)}>back to the audit</Link>
          </>
        }
      />
      <p className={styles.intro}>
        The Reviewer candidates that were dispatched, that the rules flagged, or that only the rebuild says were due. Give each a verdict —
        was the dispatch <strong>justified</strong>, <strong>unnecessary</strong>, or <strong>should it have been dispatched</strong>? —
        with a comment. The rules (R12–R13) stand beside your verdict; the trends compare the two. Keys: <kbd>j</kbd>/<kbd>k</kbd> move,{" "}
        <kbd>1</kbd> <kbd>2</kbd> <kbd>3</kbd> give a verdict, <kbd>c</kbd> comment, <kbd>a</kbd> assign to yourself, <kbd>?</kbd> all keys.
      </p>

      <div className={styles.bar}>
        <nav aria-label="Which candidates" className={styles.statuses}>
          {statusLinks.map((link) => (
            <Link
              key={link.label}
              href={queueHref(view, { status: link.status })}
              aria-current={view.status === link.status ? "page" : undefined}
              className={styles.status}
            >
              {link.label}
            </Link>
          ))}
        </nav>
        <nav aria-label="Whose candidates" className={styles.statuses}>
          <Link
            href={queueHref(view, { assignee: undefined })}
            aria-current={view.assignee === undefined ? "page" : undefined}
            className={styles.status}
          >
            Anyone&apos;s
          </Link>
          {me ? (
            <Link
              href={queueHref(view, { assignee: "me" })}
              aria-current={view.assignee === "me" ? "page" : undefined}
              className={styles.status}
            >
              Assigned to me
              {progress.data && view.assignee !== "me" && progress.data.assignedToYou > 0
                ? ` (${formatNumber(progress.data.assignedToYou)} open)`
                : ""}
            </Link>
          ) : null}
          <Link
            href={queueHref(view, { assignee: "none" })}
            aria-current={view.assignee === "none" ? "page" : undefined}
            className={styles.status}
          >
            Unassigned
          </Link>
        </nav>
        <a className="button button-quiet" href={reviewerExportHref({ ...filters, reviewed: "yes" }, "csv")} download>
          Export reviewed (CSV)
        </a>
      </div>

      <section className={styles.progress} aria-labelledby="queue-progress">
        <h2 id="queue-progress" className={styles.progressTitle}>
          {total === undefined || reviewed === undefined ? (
            "Counting the queue…"
          ) : (
            <>
              {formatNumber(reviewed)} of {formatNumber(total)} reviewed
            </>
          )}
        </h2>
        {total !== undefined && reviewed !== undefined && total > 0 ? (
          <progress className={styles.meter} max={total} value={reviewed} aria-labelledby="queue-progress" />
        ) : null}
        {progress.data && progress.data.reviewed > 0 ? (
          <p className={styles.verdictCounts}>
            {(Object.keys(VERDICT_TEXT) as TReviewVerdict[]).map((verdict) => (
              <span key={verdict}>
                <VerdictMark verdict={verdict} /> {VERDICT_TEXT[verdict].label}: {formatNumber(progress.data.verdicts[verdict])}
              </span>
            ))}
          </p>
        ) : null}
      </section>

      <p role="status" aria-live="polite" className={styles.announce}>
        {announcement}
      </p>
      {save.isError ? (
        <p role="alert" className={styles.error}>
          {save.error instanceof ApiRequestError && save.error.status === 409
            ? "Someone changed this review while you were on it: the page shows theirs now. Decide again."
            : `Not saved: ${save.error.message}`}
        </p>
      ) : null}

      {page.isError ? (
        <LoadError title="The queue could not be loaded" message={page.error.message} onRetry={() => void page.refetch()} />
      ) : rows === undefined ? (
        <p className={styles.loading}>Loading the queue…</p>
      ) : rows.length === 0 ? (
        <section className={frame.panel} aria-labelledby="queue-empty">
          <h2 id="queue-empty" className={styles.emptyTitle}>
            {view.status === undefined ? "Nothing left to review here" : "No candidates here"}
          </h2>
          <p className={styles.emptyText}>
            {view.status === undefined
              ? "Every candidate of the queue over these filters has a verdict. "
              : "No candidate of the queue matches these filters. "}
            <Link href={queueHref(view, { status: "all", assignee: undefined })}>See all of the queue</Link> or{" "}
            <Link href={auditHrefOf(view)}>go back to the audit</Link>.
          </p>
        </section>
      ) : (
        <div className={styles.layout}>
          <section className={styles.listPanel} aria-labelledby="queue-list-title">
            <h2 id="queue-list-title" className={styles.listTitle}>
              {cursor ? "A later page" : "First page"}: {formatNumber(rows.length)} {rows.length === 1 ? "candidate" : "candidates"}
            </h2>
            <ol className={styles.list} ref={listRef}>
              {rows.map((row, i) => {
                const review = reviewOf(row);
                return (
                  <li key={idOf(row)}>
                    <button
                      type="button"
                      data-item
                      className={styles.item}
                      aria-current={current && idOf(current) === idOf(row) ? "true" : undefined}
                      onClick={() => setCurrentId(idOf(rows[i]))}
                    >
                      <span className={styles.itemTask}>{row.task ?? row.runId}</span>
                      <span className={styles.itemMeta}>
                        {formatTurn(row.turn)}
                        {row.findings.length ? ` · ${row.findings.length} ${row.findings.length === 1 ? "finding" : "findings"}` : ""}
                        {row.dispatches.length ? " · dispatched" : row.source === "rebuilt" ? " · not recorded" : ""}
                      </span>
                      <span className={styles.itemStatus}>
                        {review?.verdict ? (
                          <>
                            <VerdictMark verdict={review.verdict} /> {VERDICT_TEXT[review.verdict].label}
                          </>
                        ) : (
                          "open"
                        )}
                        {review?.assignee ? ` · ${review.assignee.name}` : ""}
                      </span>
                    </button>
                  </li>
                );
              })}
            </ol>
            <div className={styles.pager}>
              {cursor ? (
                <button type="button" className="button button-quiet" onClick={() => (setCursor(undefined), setCurrentId(null))}>
                  First page
                </button>
              ) : null}
              {page.data?.nextCursor ? (
                <button
                  type="button"
                  className="button button-quiet"
                  onClick={() => (setCursor(page.data!.nextCursor!), setCurrentId(null))}
                >
                  Next page
                </button>
              ) : null}
            </div>
          </section>
          {current ? (
            <QueueItem
              // A new review (saved here, or someone else's read after a conflict) starts the form from it.
              key={`${idOf(current)}:${reviewOf(current)?.version ?? 0}`}
              row={current}
              review={reviewOf(current)}
              position={{ at: rows.indexOf(current) + 1, of: rows.length }}
              canWrite={canWrite}
              me={me}
              members={members.data?.members ?? []}
              commentRef={commentRef}
              pending={save.isPending}
              onVerdict={giveVerdict}
              onAssign={(assigneeId) => save.mutate({ row: current, assigneeId })}
            />
          ) : null}
        </div>
      )}
    </div>
  );
}
