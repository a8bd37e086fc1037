"use client";

import { Fragment, useState, type MouseEvent, type ReactNode } from "react";
import type { TReviewerCandidateRow, TReviewerSort } from "@/lib/contracts";
import { reviewerHref, type ReviewerView } from "@/lib/queries/reviewer-url";
import { formatTurn } from "@/lib/format";
import { jumpTarget } from "@/components/ui/jump-keys";
import { CandidateCells, FindingDetail } from "./reviewer-row";
import styles from "./reviewer-table.module.css";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { SortLink } from "@/components/ui/sort-link";

type Props = {
  rows: TReviewerCandidateRow[];
  view: ReviewerView;
  dimmed: boolean;
  /** Moves the audit to another view (a new order), as the filters do. */
  navigate: (changes: Partial<ReviewerView>) => void;
};

/** How each order reads, for the table's caption line. */
export const REVIEWER_SORT_TEXT: Record<TReviewerSort, string> = {
  newest: "newest run first, then by turn",
  oldest: "oldest run first, then by turn",
  violations: "most violations first, then newest run, then by turn",
};

const rowKey = (row: TReviewerCandidateRow) => `${row.runId}:${row.candidateId ?? `rebuilt-${row.turn}`}:${row.turn}`;

/**
 * One row per Reviewer candidate. The admission, dispatch and violation groups are the Reviewer's
 * own record; the reminder group beside them is the turn's review suggestion, kept apart (R12).
 */
export function ReviewerTable({ rows, view, dimmed, navigate }: Props) {
  const sort = view.sort ?? "newest";
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  return (
    <ScrollRegion label="Reviewer candidates" className={styles.wrap}>
      <table className={`${styles.table} ${dimmed ? styles.dimmed : ""}`} aria-label="Reviewer candidates">
        <colgroup>
          <col className={styles.cRun} />
          <col className={styles.cTurn} />
          <col className={styles.cK} />
          <col className={styles.cRecorded} />
          <col className={styles.cRule} />
          <col className={styles.cDispatch} />
          <col className={styles.cDone} />
          <col className={styles.cCancel} />
          <col className={styles.cSuggestion} />
          <col className={styles.cFinding} />
        </colgroup>
        <thead>
          <tr className={styles.groups}>
            <th scope="colgroup" colSpan={3}>
              Candidate
            </th>
            <th scope="colgroup" colSpan={2} className={styles.groupStart}>
              Admission <span className={styles.groupNote}>recorded vs R13</span>
            </th>
            <th scope="colgroup" colSpan={3} className={styles.groupStart}>
              Reviewer dispatch
            </th>
            <th
              scope="colgroup"
              className={styles.reminderGroup}
              title="The turn's review suggestion: advice to the model. A dropped one never cancels the candidate; a delivered one is never an admission (R12)."
            >
              Reminder <span className={styles.groupNote}>advice to the model — not an admission</span>
            </th>
            <th scope="colgroup" className={styles.groupStart}>
              Violations
            </th>
          </tr>
          <tr>
            <SortHeader
              sorted={sort === "newest" ? "descending" : sort === "oldest" ? "ascending" : undefined}
              next={sort === "newest" ? "oldest" : "newest"}
              view={view}
              navigate={navigate}
            >
              Run
            </SortHeader>
            <th scope="col" className={styles.num}>
              Turn
            </th>
            <th scope="col" className={styles.num} title="The checkpoint k of the candidate (R7)">
              k
            </th>
            <th scope="col" className={styles.groupStart}>
              Recorded
            </th>
            <th scope="col" title="R13 on that turn's facts: auto review allowed, requests left ≥ the minimum, no review in progress">
              Rule says
            </th>
            <th scope="col" className={styles.groupStart}>
              Dispatch
            </th>
            <th scope="col">Completion</th>
            <th scope="col">Cancelled</th>
            <th scope="col" className={styles.reminderCol} title="The turn's review suggestion (a reminder) and its delivery status">
              Suggestion
            </th>
            <SortHeader
              className={styles.groupStart}
              sorted={sort === "violations" ? "descending" : undefined}
              next={sort === "violations" ? "newest" : "violations"}
              view={view}
              navigate={navigate}
            >
              Finding
            </SortHeader>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => {
            const key = rowKey(row);
            const expanded = open.has(key);
            const detailId = `why-${i}`;
            return (
              <Fragment key={key}>
                <tr
                  data-candidate={row.candidateId ?? ""}
                  className={row.findings.length ? styles.flagged : undefined}
                  {...(row.findings.length
                    ? jumpTarget("violation", `${row.runId}, ${formatTurn(row.turn)}, ${row.findings.join(", ")}`)
                    : {})}
                >
                  <CandidateCells
                    row={row}
                    view={view}
                    repeatRun={i > 0 && rows[i - 1].runId === row.runId}
                    expanded={expanded}
                    detailId={detailId}
                    onToggle={() => toggle(key)}
                  />
                </tr>
                {expanded ? (
                  <tr id={detailId} className={styles.detailRow}>
                    <td colSpan={10}>
                      <FindingDetail row={row} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/**
 * A sortable column's header: a link to the audit in the other order (a new tab works too); a plain
 * click moves there in place. `aria-sort` says the order the rows are in now.
 */
function SortHeader(props: {
  children: ReactNode;
  className?: string;
  sorted: "ascending" | "descending" | undefined;
  next: TReviewerSort;
  view: ReviewerView;
  navigate: (changes: Partial<ReviewerView>) => void;
}) {
  const { children, className, sorted, next, view, navigate } = props;
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate({ sort: next });
  };
  return (
    <th scope="col" aria-sort={sorted ?? "none"} className={className}>
      <SortLink href={reviewerHref(view, { sort: next })} title={`Sort: ${REVIEWER_SORT_TEXT[next]}`} sorted={sorted} onClick={onClick}>
        {children}
      </SortLink>
    </th>
  );
}
