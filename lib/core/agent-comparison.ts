import type { TEventOf, TFinding, TPolicy, TRecordedReminder, TReminderDecision } from "@/lib/contracts";
import { REMINDER_KIND } from "@/lib/contracts";
import { ratioOf, stageOf } from "./stages";

type Submission = TEventOf<"request.submitted">["body"];
type Compaction = TEventOf<"context.compaction">["body"];

export interface RebuiltTurn {
  turn: number;
  reminders: readonly TReminderDecision[];
  /** The turn's submission: its last `request.submitted` in run order. */
  submission: Submission | undefined;
  marked: readonly TRecordedReminder[];
  lastCompaction: Compaction | undefined;
  /** The stage of the final request's required bytes, when the policy has a context section. */
  contextStage: number | undefined;
}

/** What UNCERTAIN_RESENT needs of a rebuilt turn: its number and its submission's outcome and list. */
export interface SubmittedTurn {
  turn: number;
  submission: Pick<Submission, "outcome" | "reminders"> | undefined;
}

/** (key, subject) as one string; an absent subject is null. */
function pairOf(r: { key: string; subject?: string | null }): string {
  return r.subject === undefined || r.subject === null ? `${r.key}\u0000` : `${r.key}\u0001${r.subject}`;
}

/** Whether two reminders name the same (key, subject), an absent subject being null (as pairOf, without a string). */
function samePair(a: { key: string; subject?: string | null }, b: { key: string; subject?: string | null }): boolean {
  return a.key === b.key && (a.subject ?? null) === (b.subject ?? null);
}

function label(r: { key: string; subject?: string | null; stage?: number }): string {
  const subject = r.subject === undefined || r.subject === null ? "" : ` ${JSON.stringify(r.subject)}`;
  return `${r.key}${subject}${r.stage === undefined ? "" : ` stage ${r.stage}`}`;
}

/** A label without the stage. */
function pairLabel(r: { key: string; subject?: string | null }): string {
  return label({ key: r.key, subject: r.subject });
}

function add(findings: TFinding[], code: TFinding["code"], turn: number, detail: string): void {
  findings.push({ code, turn, detail });
}

/**
 * Appends to `findings` the findings that compare one rebuilt turn with what the agent recorded
 * (contract §7): MISSING_REMINDER, UNEXPECTED_REMINDER, STAGE_MISMATCH, DUPLICATE_REMINDER,
 * MARKED_NOT_SUBMITTED, CONTEXT_FROM_ABANDONED_CANDIDATE. Only the submission's list is compared;
 * an absent list is "no record".
 */
export function compareWithAgent(rebuilt: RebuiltTurn, policy: TPolicy, findings: TFinding[]): void {
  const { turn, submission } = rebuilt;
  const list = submission?.reminders;

  if (list && !listMatches(list, rebuilt.reminders)) compareLists(turn, list, rebuilt.reminders, findings);

  for (const entry of rebuilt.marked) {
    const why = markedProblem(entry, submission);
    if (why) add(findings, "MARKED_NOT_SUBMITTED", turn, `The agent marked ${label(entry)} as delivered, but ${why}.`);
  }

  const compaction = rebuilt.lastCompaction;
  if (list && policy.context && compaction?.outcome === "rolled_back" && rebuilt.contextStage !== undefined) {
    const agentStage = highestStage(list, "context");
    if (agentStage !== undefined) {
      const candidateStage = stageOf(ratioOf(compaction.candidateBytes, policy.context.capacityBytes), policy.context.stages);
      if (agentStage === candidateStage && agentStage !== rebuilt.contextStage) {
        add(
          findings,
          "CONTEXT_FROM_ABANDONED_CANDIDATE",
          turn,
          `The agent's context stage ${agentStage} matches the rolled-back compaction candidate (${compaction.candidateBytes} bytes), not the request that was sent (stage ${rebuilt.contextStage}).`,
        );
      }
    }
  }
}

/**
 * The usual case, checked without allocating: the agent's list holds exactly the reminders the
 * rebuild included, in the same order, with the same stages. The rebuild never includes a
 * (key, subject) twice, so then there is nothing missing, unexpected, mismatched or duplicated.
 */
function listMatches(list: readonly TRecordedReminder[], reminders: readonly TReminderDecision[]): boolean {
  let at = 0;
  for (const reminder of reminders) {
    if (reminder.status === "dropped") continue;
    const entry = list[at++];
    if (entry === undefined || !samePair(entry, reminder) || entry.stage !== reminder.stage) return false;
  }
  return at === list.length;
}

/** MISSING_REMINDER, UNEXPECTED_REMINDER, STAGE_MISMATCH and DUPLICATE_REMINDER, in that order. */
function compareLists(
  turn: number,
  list: readonly TRecordedReminder[],
  reminders: readonly TReminderDecision[],
  findings: TFinding[],
): void {
  const agentStages = new Map<string, { count: number; highest: number; entry: TRecordedReminder }>();
  for (const entry of list) {
    const pair = pairOf(entry);
    const seen = agentStages.get(pair);
    if (seen) {
      seen.count++;
      seen.highest = Math.max(seen.highest, entry.stage);
    } else agentStages.set(pair, { count: 1, highest: entry.stage, entry });
  }
  const included = reminders.filter((r) => r.status !== "dropped");
  const includedPairs = new Set(included.map(pairOf));

  for (const reminder of included) {
    if (!agentStages.has(pairOf(reminder))) {
      add(
        findings,
        "MISSING_REMINDER",
        turn,
        `The rebuild put ${label(reminder)} in the request (${reminder.status}); the agent's list does not have it.`,
      );
    }
  }
  for (const [pair, { entry }] of agentStages) {
    if (!includedPairs.has(pair)) {
      add(
        findings,
        "UNEXPECTED_REMINDER",
        turn,
        `The agent's list has ${label(entry)}; the rebuild did not include ${pairLabel(entry)} in this request.`,
      );
    }
  }
  for (const reminder of included) {
    const agent = agentStages.get(pairOf(reminder));
    if (agent && agent.highest !== reminder.stage) {
      add(
        findings,
        "STAGE_MISMATCH",
        turn,
        `${pairLabel(reminder)}: the agent recorded stage ${agent.highest}, the rebuild says stage ${reminder.stage}.`,
      );
    }
  }
  for (const { count, entry } of agentStages.values()) {
    if (count > 1) add(findings, "DUPLICATE_REMINDER", turn, `The agent's list has ${pairLabel(entry)} ${count} times.`);
  }
}

/** The highest stage of `key` in the list, or undefined when the key is not in it. */
function highestStage(list: readonly TRecordedReminder[], key: TRecordedReminder["key"]): number | undefined {
  let highest: number | undefined;
  for (const entry of list) if (entry.key === key && (highest === undefined || entry.stage > highest)) highest = entry.stage;
  return highest;
}

function markedProblem(entry: TRecordedReminder, submission: Submission | undefined): string | null {
  if (!submission) return "the turn has no submission";
  if (submission.outcome === "failed") return "the turn's submission failed";
  const list = submission.reminders;
  if (!list) return null;
  return inList(list, entry) ? null : "it is not in the submitted list";
}

/** Whether the list has an entry with the same (key, subject, stage). */
function inList(list: readonly TRecordedReminder[], entry: TRecordedReminder): boolean {
  for (const r of list) if (r.stage === entry.stage && samePair(r, entry)) return true;
  return false;
}

/**
 * UNCERTAIN_RESENT (contract §7), appended to `findings`: turn t's submission was uncertain, and a
 * notice or suggestion of its list appears again, same (key, subject, stage), in turn t + 1's
 * list. Both turns rebuilt.
 */
export function uncertainResent(previous: SubmittedTurn, current: SubmittedTurn, findings: TFinding[]): void {
  const before = previous.submission;
  const now = current.submission?.reminders;
  if (current.turn !== previous.turn + 1 || before?.outcome !== "uncertain" || !before.reminders || !now) return;
  for (const entry of before.reminders) {
    if (REMINDER_KIND[entry.key] === "state") continue;
    if (inList(now, entry)) {
      add(
        findings,
        "UNCERTAIN_RESENT",
        current.turn,
        `${label(entry)} was in turn ${previous.turn}'s request, whose outcome was uncertain (possibly delivered), and was sent again.`,
      );
    }
  }
}
