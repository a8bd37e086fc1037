import { compareCodePoints } from "@/lib/core/code-points";
import { REMINDER_KEYS, type TDeliveryStatus, type TRecordedReminder, type TReminderDecision, type TReminderKey } from "@/lib/contracts";

/** What can differ between the agent's record and the rebuild for one (key, subject) (contract §7). */
export type DiffMark = "missing" | "unexpected" | "stage_differs" | "duplicate" | "marked_not_submitted";

/** The agent's record of the turn's request: no submission, a submission without a list, or a list. */
export type AgentRecordKind = "no_submission" | "no_record" | "list";

export interface MarkedEntry {
  stage: number;
  /** Whether the entry was in a request that was submitted (R10); null when not checked (skipped turn). */
  submitted: boolean | null;
}

export interface DiffRow {
  key: TReminderKey;
  /** The subject; an absent one is null (for `edits`, the blockId). */
  subject: string | null;
  /** The rebuild's reminder for the pair, null when it made no candidate for it. */
  rebuild: { stage: number; status: TDeliveryStatus } | null;
  /** The stages of the pair in the agent's submitted list, in list order; null when there is no list ("no record"). */
  agent: number[] | null;
  /** The highest of `agent` (a duplicated pair is compared at the agent's highest stage), or null. */
  agentStage: number | null;
  /** The pair's entries in the turn's `reminders.marked` events. */
  marked: MarkedEntry[];
  /** The differences, in the order of contract §7's table; empty when the row agrees. */
  marks: DiffMark[];
}

export interface AgentDiff {
  record: AgentRecordKind;
  /** Whether the lists were compared: the turn was rebuilt and the submission carries a list. */
  compared: boolean;
  rows: DiffRow[];
  /** Number of rows with at least one difference. */
  differing: number;
}

export interface AgentDiffInput {
  /** The rebuild's reminders in presentation order; null when the turn was skipped (R14). */
  reminders: readonly TReminderDecision[] | null;
  /** The turn's submission body (its last `request.submitted`), or null when it has none. */
  submission: { outcome: "ok" | "failed" | "uncertain"; reminders?: readonly TRecordedReminder[] } | null;
  /** Every entry of the turn's `reminders.marked` events, in run order. */
  marked: readonly TRecordedReminder[];
}

const pairId = (key: string, subject: string | null) => (subject === null ? `${key}\u0000` : `${key}\u0001${subject}`);

/**
 * The agent's record next to the rebuild's decision, one row per (key, subject), by contract §7's
 * rules: pairs match by (key, subject) with an absent subject as null; a pair the rebuild included
 * (any status but dropped) and the list lacks is missing; a listed pair the rebuild did not include
 * is unexpected; a pair both included is compared at the agent's highest stage; a pair listed more
 * than once is a duplicate; a marked entry is "not submitted" when the turn has no submission, its
 * outcome failed, or its list lacks that (key, subject, stage). An absent list is "no record" (no
 * list comparison); [] means the agent put nothing in the request. Skipped turns compare nothing.
 * Rows follow presentation order (R4): key, then subject by code point (null first).
 */
export function diffAgentWithRebuild({ reminders, submission, marked }: AgentDiffInput): AgentDiff {
  const list = submission?.reminders;
  const record: AgentRecordKind = !submission ? "no_submission" : list ? "list" : "no_record";
  const rebuilt = reminders !== null;
  const compared = rebuilt && list !== undefined;

  const rows = new Map<string, DiffRow>();
  const rowOf = (key: TReminderKey, subject: string | null | undefined): DiffRow => {
    const s = subject ?? null;
    const id = pairId(key, s);
    let row = rows.get(id);
    if (!row) {
      row = { key, subject: s, rebuild: null, agent: list ? [] : null, agentStage: null, marked: [], marks: [] };
      rows.set(id, row);
    }
    return row;
  };

  for (const r of reminders ?? []) rowOf(r.key, r.subject).rebuild = { stage: r.stage, status: r.status };
  for (const entry of list ?? []) {
    const row = rowOf(entry.key, entry.subject);
    row.agent!.push(entry.stage);
    row.agentStage = Math.max(row.agentStage ?? entry.stage, entry.stage);
  }
  for (const entry of marked) {
    const submitted = !rebuilt ? null : markedWasSubmitted(entry, submission);
    rowOf(entry.key, entry.subject).marked.push({ stage: entry.stage, submitted });
  }

  for (const row of rows.values()) {
    if (compared) {
      const included = row.rebuild !== null && row.rebuild.status !== "dropped";
      const listed = row.agent!.length > 0;
      if (included && !listed) row.marks.push("missing");
      if (listed && !included) row.marks.push("unexpected");
      if (included && listed && row.agentStage !== row.rebuild!.stage) row.marks.push("stage_differs");
      if (row.agent!.length > 1) row.marks.push("duplicate");
    }
    if (row.marked.some((m) => m.submitted === false)) row.marks.push("marked_not_submitted");
  }

  const sorted = [...rows.values()].sort(
    (a, b) =>
      REMINDER_KEYS.indexOf(a.key) - REMINDER_KEYS.indexOf(b.key) ||
      (a.subject === null ? (b.subject === null ? 0 : -1) : b.subject === null ? 1 : compareCodePoints(a.subject, b.subject)),
  );
  return { record, compared, rows: sorted, differing: sorted.filter((r) => r.marks.length > 0).length };
}

function markedWasSubmitted(entry: TRecordedReminder, submission: AgentDiffInput["submission"]): boolean {
  if (!submission || submission.outcome === "failed") return false;
  const list = submission.reminders;
  if (!list) return true; // a submission without a list is checked only for `failed`
  const subject = entry.subject ?? null;
  return list.some((r) => r.key === entry.key && (r.subject ?? null) === subject && r.stage === entry.stage);
}
