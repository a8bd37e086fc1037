"use client";

import { Fragment, useState } from "react";
import type { TReviewerCandidateRow } from "@/lib/contracts";
import type { ReviewerView } from "@/lib/queries/reviewer-url";
import { CandidateCells, FindingDetail } from "./reviewer-row";
import styles from "./reviewer-table.module.css";
import { ScrollRegion } from "@/components/ui/scroll-region";

type Props = { rows: TReviewerCandidateRow[]; view: ReviewerView; dimmed: boolean };

const rowKey = (row: TReviewerCandidateRow) => `${row.runId}:${row.candidateId ?? `rebuilt-${row.turn}`}:${row.turn}`;

/**
 * One row per Reviewer candidate. The admission, dispatch and violation groups are the Reviewer's
 * own record; the reminder group beside them is the turn's review suggestion, kept apart (R12).
 */
export function ReviewerTable({ rows, view, dimmed }: Props) {
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
            <th scope="col">Run</th>
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
            <th scope="col" className={styles.groupStart}>
              Finding
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => {
            const key = rowKey(row);
            const expanded = open.has(key);
            const detailId = `why-${i}`;
            return (
              <Fragment key={key}>
                <tr data-candidate={row.candidateId ?? ""} className={row.findings.length ? styles.flagged : undefined}>
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
