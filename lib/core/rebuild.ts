import {
  FINDING_CODES,
  orderedContextParts,
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
} from "@/lib/contracts";
import { compareWithAgent, uncertainResent, type RebuiltTurn, type SubmittedTurn } from "./agent-comparison";
import { makeCandidates } from "./candidates";
import { RunInputError } from "./errors";
import { EventAudit } from "./event-audit";
import { MeterFacts } from "./facts";
import { fitDecisions, freeBytesBefore } from "./fit";
import { emptyLedger, type Ledger } from "./ledger";
import { ReminderRenderer } from "./reminder-renderer";
import { resolveCopy } from "./render";
import { admit } from "./reviewer";
import { runOrder } from "./run-order";

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

/** A finding code's row in contract §7's table: the order findings take within a turn. */
const CODE_RANK = Object.fromEntries(FINDING_CODES.map((code, rank) => [code, rank])) as Record<TFinding["code"], number>;

/** What the rebuild carries from turn to turn (a rebuild checkpoint holds it as plain JSON: resume.ts). */
export interface RunState {
  readonly policy: TPolicy;
  /** The copy the renderer resolved, as given (the run's own or the options'). */
  readonly copy: TCopy | undefined;
  readonly renderer: ReminderRenderer;
  readonly facts: MeterFacts;
  readonly ledger: Ledger;
  readonly audit: EventAudit;
  /** The checkpoint of the rebuild's own last Reviewer candidate (R13). */
  lastReviewerCheckpoint: number;
  /** The last rebuilt turn, for UNCERTAIN_RESENT. */
  previous: SubmittedTurn | undefined;
  /** The last turn taken, rebuilt or skipped; -1 before the first. */
  lastTurn: number;
}

/** The state at the start of a run, before its first turn. */
export function startState(policy: TPolicy, copy: TCopy | undefined): RunState {
  return {
    policy,
    copy,
    renderer: new ReminderRenderer(resolveCopy(copy)),
    facts: new MeterFacts(),
    ledger: emptyLedger(),
    audit: new EventAudit(policy),
    lastReviewerCheckpoint: 0,
    previous: undefined,
    lastTurn: -1,
  };
}

/** Where a pass over a run's turns puts its results. */
export interface RebuildOutput {
  turns: TTurnDecision[];
  /** The turns' findings, each turn's in table order. */
  findings: TFinding[];
  /** The run-level findings (turn null), which go after every turn's (`finishedFindings`). */
  runLevel: TFinding[];
}

/**
 * Rebuilds every turn's reminder decisions of one run from its events (contract §3, §6): the same
 * events give the same result whatever their arrival order and however often one was repeated.
 * Pure: reads facts, returns advice and records. `rebuildWithCheckpoint` and `resumeRebuild`
 * (resume.ts) run the same passes and give the same result.
 */
export function rebuild(events: readonly TEvent[], options: RebuildOptions = {}): TRunDecisions {
  const ordered = runOrder(events);
  const started = runStartOf(ordered);
  const state = startState(options.policy ?? started.body.policy, options.copy ?? started.body.copy);
  const out: RebuildOutput = { turns: [], findings: [], runLevel: [] };
  rebuildTurns(state, ordered, 1, out);
  return { runId: started.runId, turns: out.turns, findings: finishedFindings(out) };
}

/** The run's one run.started, first in run order; a RunInputError without one or with a second. */
export function runStartOf(ordered: readonly TEvent[]): TEventOf<"run.started"> {
  const started = ordered[0];
  if (started?.type !== "run.started") throw new RunInputError("the run has no run.started event");
  if (ordered[1]?.type === "run.started") {
    throw new RunInputError(`the run has a second run.started event (${JSON.stringify(ordered[1].id)})`, ordered[1].id);
  }
  return started;
}

/**
 * Takes the events `ordered[from..]` (run order, the run.started already taken) into `state`,
 * turn by turn, and appends the decisions and findings to `out`. `beforeLastTurn`, when given, is
 * called once: just before the last turn that has events is taken, or after every turn when there
 * is none — the point a rebuild checkpoint is taken at.
 */
export function rebuildTurns(
  state: RunState,
  ordered: readonly TEvent[],
  from: number,
  out: RebuildOutput,
  beforeLastTurn?: () => void,
): void {
  let lastTurn = -1;
  if (beforeLastTurn) {
    for (let k = ordered.length - 1; k >= from && lastTurn < 0; k--) lastTurn = turnOf(ordered[k]) ?? -1;
  }
  const turnFindings: TFinding[] = []; // one turn's findings before they are put in table order; reused

  let i = from;
  while (i < ordered.length) {
    const first = ordered[i];
    if (first.type === "run.started" || first.type === "run.ended") {
      state.audit.observe(first, state.facts, out.runLevel);
      i++;
      continue;
    }
    let end = i + 1;
    while (end < ordered.length && turnOf(ordered[end]) === first.turn) end++;

    if (first.turn === lastTurn && beforeLastTurn) {
      beforeLastTurn();
      beforeLastTurn = undefined;
    }
    turnFindings.length = 0;
    const decision = rebuildTurn(state, first.turn, ordered, i, end, turnFindings);
    if (decision) out.turns.push(decision);
    for (let k = i; k < end; k++) state.audit.observe(ordered[k], state.facts, turnFindings);
    appendInTableOrder(out.findings, turnFindings);
    state.lastTurn = first.turn;
    i = end;
  }
  beforeLastTurn?.();
}

/** The run's findings: every turn's, then the run-level ones, each group in table order. */
export function finishedFindings(out: RebuildOutput): TFinding[] {
  appendInTableOrder(out.findings, out.runLevel);
  return out.findings;
}

/** What one turn's events say, besides meter readings. */
interface TurnEvents {
  final: TEventOf<"request.final">["body"] | undefined;
  /** The last `request.submitted` in run order. */
  submission: TEventOf<"request.submitted">["body"] | undefined;
  lastCompaction: TEventOf<"context.compaction">["body"] | undefined;
  marked: TRecordedReminder[];
}

/** Takes the meter readings of `ordered[from..to)` (one turn) into the facts and collects the rest. */
function readTurn(facts: MeterFacts, ordered: readonly TEvent[], from: number, to: number): TurnEvents {
  const read: TurnEvents = { final: undefined, submission: undefined, lastCompaction: undefined, marked: [] };
  for (let k = from; k < to; k++) {
    const event = ordered[k];
    if (facts.apply(event)) continue;
    if (event.type === "request.final") read.final = event.body;
    else if (event.type === "request.submitted") read.submission = event.body;
    else if (event.type === "context.compaction") read.lastCompaction = event.body;
    else if (event.type === "reminders.marked") for (const entry of event.body.reminders) read.marked.push(entry);
  }
  return read;
}

/**
 * Rebuilds one turn, the events `ordered[from..to)`, and adds its request findings to
 * `turnFindings`. Returns null for a skipped turn (R14).
 */
function rebuildTurn(
  state: RunState,
  turn: number,
  ordered: readonly TEvent[],
  from: number,
  to: number,
  turnFindings: TFinding[],
): TTurnDecision | null {
  const { policy, facts, ledger } = state;
  // R13: the rebuild's own admission looks at dispatches in progress at the start of the turn.
  const reviewInProgress = state.audit.dispatches.inProgress();
  const { final, submission, lastCompaction, marked } = readTurn(facts, ordered, from, to);

  if (final === undefined) {
    // R14: skipped — no candidates, no ledger change, no Reviewer candidate, no request comparisons.
    turnFindings.push({
      code: "INCOMPLETE_TURN",
      turn,
      detail: "The turn has events but no request.final, so its request cannot be rebuilt; it is skipped.",
    });
    return null;
  }

  const { requiredBytes } = final;
  const { meters, candidates, checkpoint } = makeCandidates({ turn, requiredBytes, policy, renderer: state.renderer, facts }, ledger);
  const capacityBytes = policy.context ? policy.context.capacityBytes : null;
  const status = submission ? STATUS_OF_OUTCOME[submission.outcome] : "pending";
  const { reminders, freeAfter } = fitDecisions(candidates, freeBytesBefore(requiredBytes, capacityBytes), status);
  recordDelivered(ledger, reminders);

  let reviewer: TReviewerDecision | null = null;
  if (policy.reviewer && checkpoint >= 1 && checkpoint > state.lastReviewerCheckpoint) {
    state.lastReviewerCheckpoint = checkpoint;
    reviewer = { candidate: { checkpoint }, admission: admit(policy, facts.requestsUsed, reviewInProgress) };
  }

  const rebuilt: RebuiltTurn = { turn, reminders, submission, marked, lastCompaction, contextStage: meters.context?.stage };
  compareWithAgent(rebuilt, policy, turnFindings);
  if (state.previous) uncertainResent(state.previous, rebuilt, turnFindings);
  state.previous = rebuilt;

  return {
    turn,
    requiredBytes,
    capacityBytes,
    freeBytesAfter: capacityBytes === null ? null : freeAfter,
    // Contract §11: passed through only when sent, so a v1 turn's output is unchanged.
    ...(final.contextParts && { contextParts: orderedContextParts(final.contextParts) }),
    meters,
    reminders,
    reviewer,
  };
}

/** The turn of an event; undefined for run.started and run.ended (a turn on them is ignored, contract §4). */
export function turnOf(event: TEvent): number | undefined {
  return event.type === "run.started" || event.type === "run.ended" ? undefined : event.turn;
}

/** R10: the ledger takes the stage of every delivered and uncertain notice and suggestion. */
function recordDelivered(ledger: Ledger, reminders: readonly TReminderDecision[]): void {
  for (const reminder of reminders) {
    if (reminder.key === "edits") continue;
    if (reminder.status === "delivered" || reminder.status === "uncertain") ledger[reminder.key] = reminder.stage;
  }
}

/** Appends one turn's findings in the order of contract §7's table (stable within a code). */
function appendInTableOrder(target: TFinding[], findings: readonly TFinding[]): void {
  // Usually there are none or they are already in order: no sort needed.
  const sorted = inTableOrder(findings) ? findings : stableByCode(findings);
  for (const finding of sorted) target.push(finding);
}

function inTableOrder(findings: readonly TFinding[]): boolean {
  for (let k = 1; k < findings.length; k++) if (CODE_RANK[findings[k - 1].code] > CODE_RANK[findings[k].code]) return false;
  return true;
}

function stableByCode(findings: readonly TFinding[]): TFinding[] {
  return findings
    .map((finding, at) => ({ finding, at }))
    .sort((a, b) => CODE_RANK[a.finding.code] - CODE_RANK[b.finding.code] || a.at - b.at)
    .map(({ finding }) => finding);
}
