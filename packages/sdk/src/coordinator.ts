// The in-process coordinator (`@cuescope/sdk/coordinator`): a TypeScript agent makes each turn's
// reminder decisions with Cuescope's own core (lib/core, bundled in) instead of a copy of its rules,
// and records exactly what it sent. The server rebuilds the same events with the same core, so a
// run driven by this coordinator audits with zero findings unless the agent changed what it sent.
//
// How: every event the run records is fed here (Run.onEvent). To decide turn t the coordinator
// records t's request.final and asks the core for the run's decisions so far (resuming from the
// last rebuild checkpoint, so a turn costs the events of one or two turns, not the whole run); the
// turn's decision, its reminders still "pending", is the plan.
import type { TFinding, TPolicy, TRecordedReminder, TReminderDecision, TReviewerDecision, TTurnMeters } from "../../../lib/contracts";
import {
  admit,
  DispatchTracker,
  MeterFacts,
  needsFullRebuild,
  rebuildWithCheckpoint,
  resumeRebuild,
  type CheckpointedRebuild,
} from "../../../lib/core";
import { CuescopeError, type EventBody, type RecordedEvent, type Run } from "./client";

export type { TFinding as Finding, TReminderDecision as ReminderDecision, TRecordedReminder as RecordedReminder };

/** One turn's decision: what to put in the request, and the Reviewer candidate if the turn has one. */
export interface TurnPlan {
  turn: number;
  requiredBytes: number;
  /** Every candidate of the turn in presentation order (R4), rendered from the run's copy: included (status `pending`) or `dropped` for capacity (R8). */
  reminders: TReminderDecision[];
  /** The included ones, in order: what goes into the request. */
  included: TReminderDecision[];
  /** Their texts, each ending with a newline (R8: the newline is part of each cost). */
  text: string;
  /** Their (key, subject, stage): the list `submitted` records. */
  list: TRecordedReminder[];
  /** Every meter in its own unit, with its stage. */
  meters: TTurnMeters;
  /** Free bytes after fitting; null without a context section. */
  freeBytesAfter: number | null;
  /** The rebuild's Reviewer candidate of this turn (R13), or null. */
  reviewer: TReviewerDecision | null;
}

export interface SubmittedOptions {
  /** What else the request.submitted event says (contract §4). */
  countsAgainstBudget?: boolean;
  purpose?: "turn" | "retry" | "reminder_resend";
  /** Record reminders.marked for an ok or uncertain outcome (default true): the agent's ledger marks what it sent. */
  mark?: boolean;
}

export interface ReviewerAdmission {
  candidateId: string;
  granted: boolean;
  reasons: string[];
}

export interface Coordinator {
  readonly run: Run;
  readonly policy: TPolicy;
  /**
   * Decides turn `turn`: records its request.final (the final request's size before reminders,
   * R9), with the provider's tokens and the request's bytes by part when known (contextParts,
   * providerCachedTokens: contract §11), and returns the plan. Record the turn's meter readings (meter.*, block.edited) before: a
   * reading of turn t recorded after `decide(t)` changes t's decision, and the run's audit will say so.
   */
  decide(input: { turn: number } & EventBody<"request.final">): TurnPlan;
  /**
   * Records what was sent for the plan: request.submitted with the plan's list and the outcome,
   * then reminders.marked with the same list (not for a failed outcome). Returns the submission's id.
   */
  submitted(plan: TurnPlan, outcome: "ok" | "failed" | "uncertain", options?: SubmittedOptions): string;
  /**
   * For a plan with a Reviewer candidate: records reviewer.candidate and reviewer.admission, the
   * admission decided by R13 (the core's `admit`) at this point of the run. Returns it; dispatch
   * (run.reviewerDispatched) only when `granted`. Null when the plan has no candidate.
   */
  reviewer(plan: TurnPlan, candidateId?: string): ReviewerAdmission | null;
  /** The findings of the run's rebuild so far, as the server will make them (contract §7): empty while the agent sends what was decided. */
  findings(): TFinding[];
  /** Stops listening to the run. */
  close(): void;
}

const turnOf = (event: RecordedEvent): number | undefined =>
  event.type === "run.started" || event.type === "run.ended" ? undefined : event.turn;

/**
 * A coordinator for `run` (from `createCuescope(...).startRun(...)`), deciding with the policy and
 * copy the run started with. Create it right after `startRun`: it sees the events recorded from then on.
 */
export function createCoordinator(run: Run): Coordinator {
  const started = run.started;
  if (!started) throw new CuescopeError("the run has no run.started event (it was refused): nothing to coordinate", "invalid");
  const policy = started.body.policy;
  const all: RecordedEvent[] = [started];
  /** Events of turns >= the checkpoint's next turn (and run.ended): what the next resume reads. */
  let tail: RecordedEvent[] = [];
  /** Events since the last rebuild, to tell whether the checkpoint still holds. */
  let fresh: RecordedEvent[] = [];
  let last: CheckpointedRebuild | null = null;
  // R13 as the audit judges a recorded admission: facts of its turn, dispatches in progress at its point.
  const facts = new MeterFacts();
  const dispatches = new DispatchTracker();
  let candidates = 0;

  const unsubscribe = run.onEvent((event) => {
    all.push(event);
    tail.push(event);
    fresh.push(event);
    facts.apply(event);
    if (event.type === "reviewer.dispatched") dispatches.dispatch(event.body.dispatchId);
    else if (event.type === "reviewer.completed") dispatches.complete(event.body.dispatchId);
  });

  function rebuildNow(): CheckpointedRebuild {
    const checkpoint = last?.checkpoint;
    if (!last || !checkpoint || needsFullRebuild(checkpoint, fresh)) last = rebuildWithCheckpoint(all);
    else last = resumeRebuild({ decisions: last.decisions, checkpoint }, tail);
    fresh = [];
    const next = last.checkpoint?.nextTurn;
    if (next !== undefined) tail = tail.filter((event) => (turnOf(event) ?? Infinity) >= next);
    return last;
  }

  return {
    run,
    policy,
    decide({ turn, ...body }) {
      const { requiredBytes } = body;
      run.requestFinal(body, { turn });
      const { decisions } = rebuildNow();
      const decision = decisions.turns.findLast((d) => d.turn === turn);
      // Only when the request.final was refused (production mode; development threw already): no reminders.
      if (!decision)
        return { turn, requiredBytes, reminders: [], included: [], text: "", list: [], meters: {}, freeBytesAfter: null, reviewer: null };
      const included = decision.reminders.filter((r) => r.status !== "dropped");
      return {
        turn,
        requiredBytes: decision.requiredBytes,
        reminders: decision.reminders,
        included,
        text: included.map((r) => `${r.text}\n`).join(""),
        list: included.map(({ key, subject, stage }) => ({ key, subject, stage })),
        meters: decision.meters,
        freeBytesAfter: decision.freeBytesAfter,
        reviewer: decision.reviewer,
      };
    },
    submitted(plan, outcome, options = {}) {
      const { mark = true, ...rest } = options;
      const id = run.requestSubmitted({ outcome, reminders: plan.list, ...rest }, { turn: plan.turn });
      if (mark && outcome !== "failed" && plan.list.length > 0) run.remindersMarked({ reminders: plan.list }, { turn: plan.turn });
      return id;
    },
    reviewer(plan, candidateId) {
      if (!plan.reviewer) return null;
      const id = candidateId ?? `${run.runId}:review-${++candidates}`;
      run.reviewerCandidate({ candidateId: id, checkpoint: plan.reviewer.candidate.checkpoint }, { turn: plan.turn });
      const { granted, reasons } = admit(policy, facts.requestsUsed, dispatches.inProgress());
      run.reviewerAdmission({ candidateId: id, granted, reasons }, { turn: plan.turn });
      return { candidateId: id, granted, reasons };
    },
    findings: () => [...(fresh.length > 0 || !last ? rebuildNow() : last).decisions.findings],
    close: unsubscribe,
  };
}
