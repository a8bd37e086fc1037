"use client";

import Link from "next/link";
import { useId, useState, type RefObject } from "react";
import { FINDING_INFO } from "@/lib/audit/finding-info";
import { REVIEW_VERDICTS, type TMember, type TReview, type TReviewerListRow, type TReviewVerdict } from "@/lib/contracts";
import { formatNumber, formatTurn } from "@/lib/format";
import { useFormatInstant } from "@/components/layout/time-zone";
import { runTurnHref } from "@/lib/queries/reviewer-url";
import { cancelReasonLabel, plainWord } from "@/lib/reviewer/reasons";
import { findingEvidence, recordedAdmission, ruleAdmission, sourceText } from "@/lib/reviewer/row-text";
import { FindingCode } from "@/components/reviewer/finding-code";
import { StatusMark } from "@/components/ui/status-mark";
import { VERDICT_TEXT, VerdictMark } from "./verdict";
import styles from "./review-queue.module.css";

type Props = {
  row: TReviewerListRow;
  review: TReview | null;
  position: { at: number; of: number };
  canWrite: boolean;
  me: { id: string; name: string } | null;
  members: TMember[];
  commentRef: RefObject<HTMLTextAreaElement | null>;
  pending: boolean;
  /** Saves a verdict (null: takes it back) with the comment box's text. */
  onVerdict: (verdict: TReviewVerdict | null) => void;
  onAssign: (assigneeId: string | null) => void;
};

/** One candidate of the queue: what happened, what the rules say, and the form for a person's verdict. */
export function QueueItem({ row, review, position, canWrite, me, members, commentRef, pending, onVerdict, onAssign }: Props) {
  const id = useId();
  const formatInstant = useFormatInstant();
  const [choice, setChoice] = useState<TReviewVerdict | null>(review?.verdict ?? null);
  const recorded = recordedAdmission(row);
  const rule = ruleAdmission(row);
  const assigneeId = review?.assignee?.personId ?? "";
  const assigneeKnown = assigneeId === "" || members.some((m) => m.personId === assigneeId);
  const [assignTo, setAssignTo] = useState(assigneeId);

  return (
    <section className={styles.detail} aria-labelledby={`${id}-title`}>
      <header className={styles.detailHead}>
        <h2 id={`${id}-title`} className={styles.detailTitle}>
          Candidate {position.at} of {position.of}: {row.task ?? row.runId}, {formatTurn(row.turn)}
        </h2>
        <Link href={runTurnHref(row.runId, row.turn)}>
          Open {row.runId} at {formatTurn(row.turn)}
        </Link>
      </header>

      <dl className={styles.facts}>
        <div>
          <dt>Candidate</dt>
          <dd>
            {row.candidateId ?? "none recorded"} · {sourceText(row.source)}
            {row.checkpoint !== null ? ` · checkpoint ${formatNumber(row.checkpoint)}` : ""}
          </dd>
        </div>
        <div>
          <dt>Recorded admission</dt>
          <dd>
            {recorded.outcome}
            {recorded.details.length ? ` — ${recorded.details.join("; ")}` : ""}
          </dd>
        </div>
        <div>
          <dt>Rule R13 says</dt>
          <dd>
            {rule.outcome === "none" ? "no verdict" : rule.outcome === "granted" ? "grant" : "deny"}
            {rule.details.length ? ` — ${rule.details.join("; ")}` : ""}
          </dd>
        </div>
        <div>
          <dt>Dispatches</dt>
          <dd>
            {row.dispatches.length === 0
              ? "none"
              : row.dispatches
                  .map(
                    (d) =>
                      `${d.dispatchId} at ${formatTurn(d.turn)}, ${d.completedTurn === null ? "running" : `completed at ${formatTurn(d.completedTurn)}`}${d.verdict ? ` (${plainWord(d.verdict)})` : ""}`,
                  )
                  .join("; ")}
          </dd>
        </div>
        {row.cancelled ? (
          <div>
            <dt>Cancelled</dt>
            <dd>
              {cancelReasonLabel(row.cancelled.reason)} at {formatTurn(row.cancelled.turn)}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Review reminder</dt>
          <dd>
            {row.suggestion ? (
              <>
                <StatusMark status={row.suggestion.status} /> stage {formatNumber(row.suggestion.stage)} (advice to the model, never an
                admission: R12)
              </>
            ) : (
              "none this turn"
            )}
          </dd>
        </div>
      </dl>

      <h3 className={styles.subTitle}>What the rules flagged</h3>
      {row.findings.length ? (
        <ul className={styles.findings}>
          {row.findings.map((code, i) => (
            <li key={`${code}-${i}`}>
              <FindingCode code={code} /> <strong>{FINDING_INFO[code].title}.</strong> {findingEvidence(row, code)}
            </li>
          ))}
        </ul>
      ) : (
        <p className={styles.quiet}>Nothing: no Reviewer finding on this candidate.</p>
      )}

      {review?.verdict ? (
        <p className={styles.given}>
          <VerdictMark verdict={review.verdict} /> <strong>{VERDICT_TEXT[review.verdict].label}</strong>
          {review.reviewer ? ` — ${review.reviewer.name}` : ""}
          {review.reviewedAt ? `, ${formatInstant(review.reviewedAt)}` : ""}
          {review.comment ? <span className={styles.givenComment}>“{review.comment}”</span> : null}
        </p>
      ) : null}

      {canWrite ? (
        <form
          className={styles.form}
          onSubmit={(event) => {
            event.preventDefault();
            if (choice) onVerdict(choice);
          }}
        >
          <fieldset className={styles.verdicts}>
            <legend>Your verdict</legend>
            {REVIEW_VERDICTS.map((verdict) => (
              <label key={verdict} className={styles.verdictOption}>
                <input
                  type="radio"
                  name={`${id}-verdict`}
                  value={verdict}
                  checked={choice === verdict}
                  onChange={() => setChoice(verdict)}
                />
                <kbd aria-hidden="true">{VERDICT_TEXT[verdict].key}</kbd> <VerdictMark verdict={verdict} /> {VERDICT_TEXT[verdict].label}
                <span className={styles.quiet}> — {VERDICT_TEXT[verdict].help}</span>
              </label>
            ))}
          </fieldset>
          <label htmlFor={`${id}-comment`} className={styles.fieldLabel}>
            Comment <span className={styles.quiet}>(optional; Esc leaves the box, then 1–3 saves)</span>
          </label>
          <textarea
            id={`${id}-comment`}
            ref={commentRef}
            rows={3}
            maxLength={4000}
            defaultValue={review?.comment ?? ""}
            onKeyDown={(event) => {
              if (event.key === "Escape") event.currentTarget.blur();
            }}
          />
          <div className={styles.formRow}>
            <button type="submit" className="button" disabled={pending || choice === null}>
              Save verdict
            </button>
            {review?.verdict ? (
              <button type="button" className="button button-quiet" disabled={pending} onClick={() => onVerdict(null)}>
                Take the verdict back
              </button>
            ) : null}
            <label htmlFor={`${id}-assignee`} className={styles.fieldLabel}>
              Assigned to
            </label>
            <select id={`${id}-assignee`} value={assignTo} onChange={(event) => setAssignTo(event.target.value)}>
              <option value="">Nobody</option>
              {!assigneeKnown && review?.assignee ? <option value={assigneeId}>{review.assignee.name}</option> : null}
              {members.map((member) => (
                <option key={member.personId} value={member.personId}>
                  {member.name}
                  {me?.id === member.personId ? " (you)" : ""}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="button button-quiet"
              disabled={pending || assignTo === assigneeId}
              onClick={() => onAssign(assignTo === "" ? null : assignTo)}
            >
              {assignTo === "" && assigneeId !== "" ? "Unassign" : "Assign"}
            </button>
          </div>
        </form>
      ) : (
        <p className={styles.quiet}>
          You can read the queue. Giving verdicts and assigning need the member role (or a key that may write).
          {review?.assignee ? ` Assigned to ${review.assignee.name}.` : ""}
        </p>
      )}
    </section>
  );
}
