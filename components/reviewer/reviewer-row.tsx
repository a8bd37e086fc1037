import Link from "next/link";
import { FINDING_INFO } from "@/lib/audit/finding-info";
import { isCancelledByDrop, type TReviewerCandidateRow } from "@/lib/contracts";
import { formatNumber, formatTurn } from "@/lib/format";
import { reviewerHref, runTurnHref, type ReviewerView } from "@/lib/queries/reviewer-url";
import { cancelReasonLabel, plainWord } from "@/lib/reviewer/reasons";
import {
  admissionDisagrees,
  findingEvidence,
  recordedAdmission,
  ruleAdmission,
  sourceText,
  type AdmissionText,
} from "@/lib/reviewer/row-text";
import { StatusMark } from "@/components/ui/status-mark";
import { FindingCode } from "./finding-code";
import styles from "./reviewer-table.module.css";

type Props = {
  row: TReviewerCandidateRow;
  view: ReviewerView;
  /** The row before is of the same run: its task is shown quietly. */
  repeatRun: boolean;
  expanded: boolean;
  detailId: string;
  onToggle: () => void;
};

const OUTCOME_MARKS: Record<AdmissionText["outcome"], string> = { granted: "✓", denied: "✗", none: "—" };

/** The cells of one candidate's row. */
export function CandidateCells({ row, view, repeatRun, expanded, detailId, onToggle }: Props) {
  const href = runTurnHref(row.runId, row.turn);
  const disagrees = admissionDisagrees(row);
  const rule = ruleAdmission(row);
  return (
    <>
      <td className={styles.run}>
        <Link href={href} className={`${styles.task} ${repeatRun ? styles.repeat : ""}`} title={row.task ?? row.runId}>
          {row.task ?? row.runId}
        </Link>
        {view.run === row.runId ? (
          <span className={styles.runId} title={row.runId}>
            {row.runId}
          </span>
        ) : (
          <Link
            className={styles.runId}
            href={reviewerHref(view, { run: row.runId })}
            scroll={false}
            title={`${row.runId} — show only this run's candidates`}
            aria-label={`Only run ${row.runId}`}
          >
            {row.runId}
          </Link>
        )}
      </td>
      <td className={styles.num}>
        <Link href={href} aria-label={`Open ${row.runId} at ${formatTurn(row.turn)}`} className={styles.turnLink}>
          {formatNumber(row.turn)}
        </Link>
        {row.source !== "both" ? (
          <span className={`${styles.sub} ${styles.source}`} title={sourceText(row.source)}>
            {row.source === "recorded" ? "not due" : "not recorded"}
          </span>
        ) : null}
      </td>
      <td className={styles.num}>{row.checkpoint === null ? <span className={styles.faint}>—</span> : formatNumber(row.checkpoint)}</td>

      <td className={`${styles.groupStart} ${disagrees ? styles.disagree : ""}`}>
        <Admission text={recordedAdmission(row)} />
      </td>
      <td
        className={disagrees ? styles.disagreeRule : undefined}
        title={rule.basis === "rebuild" ? "No admission was recorded: the rebuild's own admission at the start of the turn" : undefined}
      >
        {disagrees ? (
          <span className={styles.neq} title="The recorded admission differs from R13" aria-label="differs from the recorded admission">
            ≠
          </span>
        ) : null}
        <Admission text={rule} verb />
        {rule.basis === "rebuild" ? <span className={styles.sub}>rebuild, turn start</span> : null}
      </td>

      <td className={styles.groupStart}>
        {row.dispatches.length ? (
          row.dispatches.map((d) => (
            <span key={d.dispatchId} className={styles.dispatchId} title={`dispatched at ${formatTurn(d.turn)}`}>
              {d.dispatchId}
            </span>
          ))
        ) : (
          <span className={styles.faint}>—</span>
        )}
      </td>
      <td>
        {row.dispatches.length ? (
          row.dispatches.map((d) =>
            d.completedTurn === null ? (
              <span key={d.dispatchId} className={styles.line}>
                <span className={styles.running} aria-hidden="true">
                  ▶{" "}
                </span>
                running
              </span>
            ) : (
              <span key={d.dispatchId} className={styles.line} title={`${d.dispatchId} completed at ${formatTurn(d.completedTurn)}`}>
                <span className={styles.done} aria-hidden="true">
                  ■{" "}
                </span>
                {d.verdict ? plainWord(d.verdict) : "done"}
                <span className={styles.at}>{formatTurn(d.completedTurn)}</span>
              </span>
            ),
          )
        ) : (
          <span className={styles.faint}>—</span>
        )}
      </td>
      <td>
        {row.cancelled ? (
          isCancelledByDrop(row.cancelled.reason) ? (
            <span className={styles.badCancel} title="A dropped or undelivered reminder never cancels a Reviewer candidate (R12)">
              <span aria-hidden="true">⚠ </span>
              {cancelReasonLabel(row.cancelled.reason)}
            </span>
          ) : (
            <span>{cancelReasonLabel(row.cancelled.reason)}</span>
          )
        ) : (
          <span className={styles.faint}>—</span>
        )}
      </td>

      <td className={styles.reminderCell}>
        {row.suggestion ? (
          <>
            <StatusMark status={row.suggestion.status} />
            <span className={styles.sub}>stage {formatNumber(row.suggestion.stage)}</span>
          </>
        ) : (
          <span className={styles.faint} title="The rebuild included no review suggestion on this turn">
            none this turn
          </span>
        )}
      </td>

      <td className={`${styles.groupStart} ${styles.findings}`}>
        {row.findings.length ? (
          <>
            {row.findings.map((code, i) => (
              <FindingCode key={`${code}-${i}`} code={code} />
            ))}
            <button
              type="button"
              className={styles.why}
              aria-expanded={expanded}
              aria-controls={expanded ? detailId : undefined}
              onClick={onToggle}
            >
              {expanded ? "Hide" : "Why"} <span aria-hidden="true">{expanded ? "▴" : "▾"}</span>
            </button>
          </>
        ) : (
          <span className={styles.faint}>—</span>
        )}
      </td>
    </>
  );
}

function Admission({ text, verb = false }: { text: AdmissionText; verb?: boolean }) {
  const word = text.outcome === "none" ? "none" : verb ? (text.outcome === "granted" ? "grant" : "deny") : text.outcome;
  return (
    <>
      <span className={`${styles.outcome} ${styles[text.outcome]}`}>
        <span aria-hidden="true">{OUTCOME_MARKS[text.outcome]} </span>
        {word}
      </span>
      {text.details.map((line) => (
        <span key={line} className={styles.sub}>
          {line}
        </span>
      ))}
    </>
  );
}

/** The expandable explanation under a flagged row: each code, its rule, and what in the row made it. */
export function FindingDetail({ row }: { row: TReviewerCandidateRow }) {
  return (
    <ul className={styles.detail}>
      {row.findings.map((code, i) => (
        <li key={`${code}-${i}`}>
          <FindingCode code={code} />
          <span className={styles.detailText}>
            <strong>{FINDING_INFO[code].title}.</strong> {FINDING_INFO[code].rule}{" "}
            <span className={styles.faint}>({FINDING_INFO[code].ref})</span>
            <span className={styles.evidence}>{findingEvidence(row, code)}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
