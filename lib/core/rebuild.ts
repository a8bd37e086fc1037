import {
  FINDING_CODES,
  type TCopy,
  type TDeliveryStatus,
  type TEvent,
  type TEventOf,
  type TFinding,
  type TPolicy,
  type TRecordedReminder,
  type TReminderDecision,
  type TReviewerDecision,
  type TRunDecisions,
  type TTurnDecision,
} from "../contracts";
import { compareWithAgent, uncertainResent, type RebuiltTurn } from "./agent-comparison";
import { makeCandidates } from "./candidates";
import { RunInputError } from "./errors";
import { EventAudit } from "./event-audit";
import { MeterFacts } from "./facts";
import { fitReminders, type Fitted } from "./fit";
import { emptyLedger, type Ledger } from "./ledger";
import { resolveCopy } from "./render";
import { admit } from "./reviewer";
import { inRunOrder } from "./run-order";

export interface RebuildOptions {
  /** Replaces the run's own policy (what-if replay). */
  policy?: TPolicy;
  /** Replaces the run's own copy, still over the default copy key by key (what-if replay). */
  copy?: TCopy;
}

const STATUS_OF_OUTCOME: Record<"ok" | "failed" | "uncertain", TDeliveryStatus> = {
  ok: "delivered",
  failed: "failed",
  uncertain: "uncertain",
};

const CODE_RANK = new Map<TFinding["code"], number>(FINDING_CODES.map((code, rank) => [code, rank]));

/**
 * Rebuilds every turn's reminder decisions of one run from its events (SPEC §3, §6): the same
 * events give the same result whatever their arrival order and however often one was repeated.
 * Pure: reads facts, returns advice and records.
 */
export function rebuild(events: readonly TEvent[], options: RebuildOptions = {}): TRunDecisions {
  const ordered = inRunOrder(events);
  const started = ordered[0];
  if (started?.type !== "run.started") throw new RunInputError("the run has no run.started event");
  if (ordered[1]?.type === "run.started") {
    throw new RunInputError(`the run has a second run.started event (${JSON.stringify(ordered[1].id)})`, ordered[1].id);
  }

  const policy = options.policy ?? started.body.policy;
  const copy = resolveCopy(options.copy ?? started.body.copy);
  const facts = new MeterFacts();
  const ledger = emptyLedger();
  const audit = new EventAudit(policy);
  const turns: TTurnDecision[] = [];
  const findings: TFinding[] = [];
  const runLevel: TFinding[] = [];
  let lastReviewerCheckpoint = 0;
  let previous: RebuiltTurn | undefined;

  let i = 1;
  while (i < ordered.length) {
    const first = ordered[i];
    if (first.type === "run.started" || first.type === "run.ended") {
      audit.observe(first, facts, runLevel);
      i++;
      continue;
    }
    const turn = first.turn;
    let end = i;
    while (end < ordered.length && turnOf(ordered[end]) === turn) end++;

    // R13: the rebuild's own admission looks at dispatches in progress at the start of the turn.
    const reviewInProgress = audit.dispatches.inProgress();
    let final: TEventOf<"request.final">["body"] | undefined;
    let submission: TEventOf<"request.submitted">["body"] | undefined;
    let lastCompaction: TEventOf<"context.compaction">["body"] | undefined;
    const marked: TRecordedReminder[] = [];
    for (let k = i; k < end; k++) {
      const event = ordered[k];
      if (facts.apply(event)) continue;
      if (event.type === "request.final") final = event.body;
      else if (event.type === "request.submitted") submission = event.body;
      else if (event.type === "context.compaction") lastCompaction = event.body;
      else if (event.type === "reminders.marked") marked.push(...event.body.reminders);
    }

    const turnFindings: TFinding[] = [];
    if (final === undefined) {
      // R14: skipped — no candidates, no ledger change, no Reviewer candidate, no request comparisons.
      turnFindings.push({
        code: "INCOMPLETE_TURN",
        turn,
        detail: "The turn has events but no request.final, so its request cannot be rebuilt; it is skipped.",
      });
    } else {
      const { meters, candidates, checkpoint } = makeCandidates({ turn, requiredBytes: final.requiredBytes, policy, copy, facts }, ledger);
      const capacityBytes = policy.context ? policy.context.capacityBytes : null;
      const { fitted, freeAfter } = fitReminders(candidates, capacityBytes === null ? Infinity : capacityBytes - final.requiredBytes);
      const status = submission ? STATUS_OF_OUTCOME[submission.outcome] : "pending";
      const reminders = fitted.map((reminder) => toDecision(reminder, status));
      recordDelivered(ledger, reminders);

      let reviewer: TReviewerDecision | null = null;
      if (policy.reviewer && checkpoint >= 1 && checkpoint > lastReviewerCheckpoint) {
        lastReviewerCheckpoint = checkpoint;
        reviewer = { candidate: { checkpoint }, admission: admit(policy, facts.requestsUsed, reviewInProgress) };
      }

      turns.push({
        turn,
        requiredBytes: final.requiredBytes,
        capacityBytes,
        freeBytesAfter: capacityBytes === null ? null : freeAfter,
        meters,
        reminders,
        reviewer,
      });

      const rebuilt: RebuiltTurn = { turn, reminders, submission, marked, lastCompaction, contextStage: meters.context?.stage };
      turnFindings.push(...compareWithAgent(rebuilt, policy));
      if (previous) turnFindings.push(...uncertainResent(previous, rebuilt));
      previous = rebuilt;
    }

    for (let k = i; k < end; k++) audit.observe(ordered[k], facts, turnFindings);
    findings.push(...inTableOrder(turnFindings));
    i = end;
  }

  return { runId: started.runId, turns, findings: [...findings, ...inTableOrder(runLevel)] };
}

function turnOf(event: TEvent): number | undefined {
  return event.type === "run.started" || event.type === "run.ended" ? undefined : event.turn;
}

function toDecision(reminder: Fitted, status: TDeliveryStatus): TReminderDecision {
  const { key, subject, kind, stage, text, bytes } = reminder;
  if (reminder.included) return { key, subject, kind, stage, text, bytes, status };
  return { key, subject, kind, stage, text, bytes, status: "dropped", dropReason: "capacity", freeBytes: reminder.freeBytes };
}

/** R10: the ledger takes the stage of every delivered and uncertain notice and suggestion. */
function recordDelivered(ledger: Ledger, reminders: readonly TReminderDecision[]): void {
  for (const reminder of reminders) {
    if (reminder.key === "edits") continue;
    if (reminder.status === "delivered" || reminder.status === "uncertain") ledger[reminder.key] = reminder.stage;
  }
}

/** Within a turn, findings follow the order of SPEC §7's table (stable within a code). */
function inTableOrder(findings: TFinding[]): TFinding[] {
  return findings
    .map((finding, at) => ({ finding, at }))
    .sort((a, b) => CODE_RANK.get(a.finding.code)! - CODE_RANK.get(b.finding.code)! || a.at - b.at)
    .map(({ finding }) => finding);
}
