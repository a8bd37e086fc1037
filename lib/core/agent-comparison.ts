import type { TEventOf, TFinding, TPolicy, TRecordedReminder, TReminderDecision } from "../contracts";
import { REMINDER_KIND } from "../contracts";
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

/** (key, subject) as one string; an absent subject is null. */
function pairOf(r: { key: string; subject?: string | null }): string {
  return r.subject === undefined || r.subject === null ? `${r.key}\u0000` : `${r.key}\u0001${r.subject}`;
}

function label(r: { key: string; subject?: string | null; stage?: number }): string {
  const subject = r.subject === undefined || r.subject === null ? "" : ` ${JSON.stringify(r.subject)}`;
  return `${r.key}${subject}${r.stage === undefined ? "" : ` stage ${r.stage}`}`;
}

/**
 * The findings that compare one rebuilt turn with what the agent recorded (SPEC §7):
 * MISSING_REMINDER, UNEXPECTED_REMINDER, STAGE_MISMATCH, DUPLICATE_REMINDER, MARKED_NOT_SUBMITTED,
 * CONTEXT_FROM_ABANDONED_CANDIDATE. Only the submission's list is compared; an absent list is "no record".
 */
export function compareWithAgent(rebuilt: RebuiltTurn, policy: TPolicy): TFinding[] {
  const { turn, submission } = rebuilt;
  const findings: TFinding[] = [];
  const add = (code: TFinding["code"], detail: string) => findings.push({ code, turn, detail });
  const list = submission?.reminders;

  if (list) {
    const agentStages = new Map<string, { count: number; highest: number; entry: TRecordedReminder }>();
    for (const entry of list) {
      const pair = pairOf(entry);
      const seen = agentStages.get(pair);
      if (seen) {
        seen.count++;
        seen.highest = Math.max(seen.highest, entry.stage);
      } else agentStages.set(pair, { count: 1, highest: entry.stage, entry });
    }
    const included = rebuilt.reminders.filter((r) => r.status !== "dropped");
    const includedPairs = new Set(included.map(pairOf));

    for (const reminder of included) {
      if (!agentStages.has(pairOf(reminder))) {
        add("MISSING_REMINDER", `The rebuild put ${label(reminder)} in the request (${reminder.status}); the agent's list does not have it.`);
      }
    }
    for (const [pair, { entry }] of agentStages) {
      if (!includedPairs.has(pair)) {
        add("UNEXPECTED_REMINDER", `The agent's list has ${label(entry)}; the rebuild did not include ${label({ ...entry, stage: undefined })} in this request.`);
      }
    }
    for (const reminder of included) {
      const agent = agentStages.get(pairOf(reminder));
      if (agent && agent.highest !== reminder.stage) {
        add("STAGE_MISMATCH", `${label({ ...reminder, stage: undefined })}: the agent recorded stage ${agent.highest}, the rebuild says stage ${reminder.stage}.`);
      }
    }
    for (const { count, entry } of agentStages.values()) {
      if (count > 1) add("DUPLICATE_REMINDER", `The agent's list has ${label({ ...entry, stage: undefined })} ${count} times.`);
    }
  }

  for (const entry of rebuilt.marked) {
    const why = markedProblem(entry, submission);
    if (why) add("MARKED_NOT_SUBMITTED", `The agent marked ${label(entry)} as delivered, but ${why}.`);
  }

  const compaction = rebuilt.lastCompaction;
  if (list && policy.context && compaction?.outcome === "rolled_back" && rebuilt.contextStage !== undefined) {
    const agentContext = list.filter((entry) => entry.key === "context");
    if (agentContext.length > 0) {
      const agentStage = Math.max(...agentContext.map((entry) => entry.stage));
      const candidateStage = stageOf(ratioOf(compaction.candidateBytes, policy.context.capacityBytes), policy.context.stages);
      if (agentStage === candidateStage && agentStage !== rebuilt.contextStage) {
        add(
          "CONTEXT_FROM_ABANDONED_CANDIDATE",
          `The agent's context stage ${agentStage} matches the rolled-back compaction candidate (${compaction.candidateBytes} bytes), not the request that was sent (stage ${rebuilt.contextStage}).`,
        );
      }
    }
  }
  return findings;
}

function markedProblem(entry: TRecordedReminder, submission: Submission | undefined): string | null {
  if (!submission) return "the turn has no submission";
  if (submission.outcome === "failed") return "the turn's submission failed";
  const list = submission.reminders;
  if (!list) return null;
  const pair = pairOf(entry);
  return list.some((r) => pairOf(r) === pair && r.stage === entry.stage) ? null : "it is not in the submitted list";
}

/**
 * UNCERTAIN_RESENT (SPEC §7): turn t's submission was uncertain, and a notice or suggestion of its
 * list appears again, same (key, subject, stage), in turn t + 1's list. Both turns rebuilt.
 */
export function uncertainResent(previous: RebuiltTurn, current: RebuiltTurn): TFinding[] {
  const before = previous.submission;
  const now = current.submission?.reminders;
  if (current.turn !== previous.turn + 1 || before?.outcome !== "uncertain" || !before.reminders || !now) return [];
  const findings: TFinding[] = [];
  for (const entry of before.reminders) {
    if (REMINDER_KIND[entry.key] === "state") continue;
    const pair = pairOf(entry);
    if (now.some((r) => pairOf(r) === pair && r.stage === entry.stage)) {
      findings.push({
        code: "UNCERTAIN_RESENT",
        turn: current.turn,
        detail: `${label(entry)} was in turn ${previous.turn}'s request, whose outcome was uncertain (possibly delivered), and was sent again.`,
      });
    }
  }
  return findings;
}
