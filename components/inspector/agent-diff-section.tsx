import type { AgentDiff, DiffMark, DiffRow } from "@/lib/inspector/agent-diff";
import { pairLabel } from "@/lib/inspector/labels";
import { StatusMark } from "@/components/ui/status-mark";
import { InspectorSection } from "./inspector-section";
import styles from "./record.module.css";
import { ScrollRegion } from "@/components/ui/scroll-region";

const MARK_TEXT: Record<DiffMark, string> = {
  missing: "missing",
  unexpected: "unexpected",
  stage_differs: "stage differs",
  duplicate: "duplicate",
  marked_not_submitted: "marked, not submitted",
};

const MARK_HELP: Record<DiffMark, string> = {
  missing: "The rebuild put it in the request; the agent's list does not have it (MISSING_REMINDER).",
  unexpected: "In the agent's list, but the rebuild did not include it (UNEXPECTED_REMINDER).",
  stage_differs: "Both included it, at different stages; a duplicated pair counts at the agent's highest stage (STAGE_MISMATCH).",
  duplicate: "The pair appears more than once in the agent's list (DUPLICATE_REMINDER).",
  marked_not_submitted: "Marked as delivered by the agent's ledger, but not in a submitted request (MARKED_NOT_SUBMITTED).",
};

function RebuildCell({ row, skipped }: { row: DiffRow; skipped: boolean }) {
  if (skipped) return <span className={styles.faint}>skipped</span>;
  if (!row.rebuild) return <span className={styles.faint}>none</span>;
  return (
    <span className={styles.stageCell}>
      <span className={styles.stageNum}>{row.rebuild.stage}</span>
      <StatusMark status={row.rebuild.status} />
    </span>
  );
}

function AgentCell({ row, record }: { row: DiffRow; record: AgentDiff["record"] }) {
  if (record === "no_submission") return <span className={styles.faint}>no submission</span>;
  if (row.agent === null) return <span className={styles.faint}>no record</span>;
  if (row.agent.length === 0) return <span className={styles.faint}>not listed</span>;
  return (
    <span className={styles.stageNum}>
      {row.agent.join(", ")}
      {row.agent.length > 1 ? (
        <span className={styles.faint}>
          {" "}
          (×{row.agent.length}, highest {row.agentStage})
        </span>
      ) : null}
    </span>
  );
}

function MarkedCell({ row }: { row: DiffRow }) {
  return (
    <span className={styles.markedLine}>
      <span className={styles.faint}>marked </span>
      {row.marked.map((m, i) => (
        <span
          key={i}
          className={m.submitted === false ? styles.warn : styles.stageNum}
          title={m.submitted === false ? MARK_HELP.marked_not_submitted : undefined}
        >
          {m.stage}
          {m.submitted === false ? " ⚠ not sent" : m.submitted ? " ✓" : ""}
        </span>
      ))}
    </span>
  );
}

function recordText(diff: AgentDiff, skipped: boolean): string {
  if (diff.record === "no_submission") return "No submission: the agent recorded no request list for this turn.";
  if (diff.record === "no_record") return "No record: the submission carries no reminders list, so nothing is compared.";
  if (skipped) return "The turn was skipped (R14): the agent's list is shown, nothing is compared.";
  const empty = diff.rows.every((r) => r.agent?.length === 0) ? "The agent's list is [] — it put nothing in the request. " : "";
  if (diff.differing === 0) return empty || "The agent's list agrees with the rebuild.";
  return `${empty}${diff.differing} of ${diff.rows.length} reminders differ.`;
}

/**
 * What the agent recorded (the submission's `reminders`, and `reminders.marked`) next to what the
 * rebuild decided, one row per (key, subject), differences highlighted (contract §7).
 */
export function AgentDiffSection({ diff, skipped }: { diff: AgentDiff; skipped: boolean }) {
  const anyMarked = diff.rows.some((r) => r.marked.length > 0);
  return (
    <InspectorSection id="inspector-agent-diff" title="Agent recorded vs rebuild" meta="§7">
      <p className={styles.lead} data-tone={diff.differing > 0 ? "warn" : undefined}>
        {recordText(diff, skipped)}
      </p>
      {diff.rows.length === 0 ? (
        <p className={styles.faintBlock}>Neither the rebuild nor the agent has a reminder this turn.</p>
      ) : (
        <ScrollRegion label="Agent recorded vs rebuild, by reminder (scrolls sideways)">
          <table className={styles.table} aria-label="Agent recorded vs rebuild">
            <thead>
              <tr>
                <th scope="col">reminder</th>
                <th scope="col">rebuild</th>
                <th scope="col">agent</th>
              </tr>
            </thead>
            <tbody>
              {diff.rows.map((row) => (
                <tr key={`${row.key}:${row.subject ?? ""}`} data-differs={row.marks.length > 0 || undefined}>
                  <th scope="row">
                    <span className={styles.pairName}>{pairLabel(row.key, row.subject)}</span>
                    {row.marks.length > 0 ? (
                      <span className={styles.marks}>
                        {row.marks.map((m) => (
                          <span key={m} className={styles.diffMark} title={MARK_HELP[m]}>
                            ≠ {MARK_TEXT[m]}
                          </span>
                        ))}
                      </span>
                    ) : diff.compared ? (
                      <span className={styles.same}>= same</span>
                    ) : null}
                  </th>
                  <td>
                    <RebuildCell row={row} skipped={skipped} />
                  </td>
                  <td>
                    <AgentCell row={row} record={diff.record} />
                    {row.marked.length > 0 ? <MarkedCell row={row} /> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <p className={styles.footnote}>
        Stages (for review: the checkpoint). Agent = the submission&apos;s <code>reminders</code> list
        {anyMarked ? (
          <>
            ; marked = its <code>reminders.marked</code> (✓ in the submitted request)
          </>
        ) : (
          <>
            ; no <code>reminders.marked</code> entry on this turn
          </>
        )}
        .
      </p>
    </InspectorSection>
  );
}
