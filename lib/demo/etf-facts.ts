import type { TFindingCode, TPolicy } from "@/lib/contracts";
import type { EtfRates } from "./etf-options";
import type { Draft, ExpectedFinding, Outcome, SubmissionBody, TurnRecord } from "./etf-model";
import type { AnomalyPlan } from "./etf-plan";
import type { Rng } from "./prng";

const FUNDS = ["VTI", "ITOT", "SCHB", "VT"] as const;
/** Text blocks with their own edit limit, reported by the publisher with the first reading. */
const OWN_LIMITS: Record<string, number> = { b3: 6, b5: 3 };
const SECTIONS = [
  "Fund overview",
  "Expense ratios",
  "Holdings overlap",
  "Tracking difference",
  "Recommendation",
  "Tax considerations",
  "Appendix: sources",
];

/** Codes injected while the facts are made (the rest are injected into the agent's lists). */
export const FACT_CODES: readonly TFindingCode[] = [
  "INCOMPLETE_TURN",
  "FREE_REQUEST",
  "REMINDER_RESEND",
  "UNCERTAIN_RESENT",
  "CONTEXT_FROM_ABANDONED_CANDIDATE",
  "DISPATCH_WITHOUT_ADMISSION",
  "CONCURRENT_DISPATCH",
  "ADMISSION_RULE_MISMATCH",
  "CANDIDATE_CANCELLED_BY_DROP",
];

interface Block {
  id: string;
  used: number;
  limit: number;
}

export interface FactsInput {
  turns: number;
  policy: TPolicy;
  rates: EtfRates;
  blocks: number;
  plan: AnomalyPlan;
  rng: Rng;
  onProgress?: (done: number, total: number) => void;
}

export interface FactsOutput {
  records: TurnRecord[];
  runEnded: { status: "completed" | "stopped"; reason?: string };
  /** Findings made by single events and the Reviewer flow (the list phase adds the comparisons). */
  eventFindings: ExpectedFinding[];
}

/**
 * Phase 1 of the ETF run: the facts each owner reports turn by turn (budget, clock, context
 * assembler, publisher, runtime, Reviewer flow, model actions) with the agent's reminder lists
 * still empty. Injects the anomalies that live in the facts.
 */
export class EtfFacts {
  private readonly records: TurnRecord[] = [];
  private readonly eventFindings: ExpectedFinding[] = [];
  private used = 0;
  private elapsed = 0;
  private required: number;
  private growth = 0;
  private threshold: number;
  private readonly blocks: Block[] = [];
  private readonly blockTurns: number[] = [];
  private pendingBlockReadings: Record<string, unknown>[] = [];
  private readonly inProgress = new Set<string>();
  private readonly completions = new Map<number, string[]>();
  private lastCheckpoint = 0;
  private abandonedCandidatePending = false;
  private readonly editChance: number;
  private rec!: TurnRecord;

  constructor(private readonly input: FactsInput) {
    const { rng, turns, blocks } = input;
    this.required = rng.int(5_200, 7_000);
    this.threshold = rng.between(0.78, 0.93);
    for (let i = 0; i < blocks; i++) {
      const at = Math.floor(turns * (0.03 + (0.42 * i) / Math.max(1, blocks - 1))) + rng.int(0, 3);
      this.blockTurns.push(Math.min(at, Math.max(0, turns - 4)));
    }
    this.editChance = Math.min(0.25, (5.5 * blocks) / (0.75 * Math.max(1, turns)));
  }

  run(): FactsOutput {
    const { turns, plan, policy } = this.input;
    if (plan.wants("CONTEXT_FROM_ABANDONED_CANDIDATE") && !(policy.context && policy.context.stages.length >= 2)) {
      plan.abandon("CONTEXT_FROM_ABANDONED_CANDIDATE", "needs a context section with at least two stages");
    }
    if (!policy.reviewer) {
      for (const code of [
        "DISPATCH_WITHOUT_ADMISSION",
        "CONCURRENT_DISPATCH",
        "ADMISSION_RULE_MISMATCH",
        "CANDIDATE_CANCELLED_BY_DROP",
      ] as const) {
        plan.abandon(code, "the generator makes Reviewer candidates only with a reviewer section");
      }
    }
    for (let t = 0; t < turns; t++) {
      this.turn(t);
      if (this.input.onProgress && (t % 1000 === 999 || t === turns - 1)) this.input.onProgress(t + 1, turns);
    }
    if (this.abandonedCandidatePending) {
      plan.fail("CONTEXT_FROM_ABANDONED_CANDIDATE", "no later turn reached context stage 2 below capacity");
    }
    for (const code of FACT_CODES) plan.abandon(code, "the run ended before a turn where it fits");
    let runEnded: FactsOutput["runEnded"] = { status: "completed" };
    if (plan.wants("GLOBAL_STOP_ON_LOCAL_QUOTA")) {
      runEnded = { status: "stopped", reason: "edit_quota_exhausted" };
      for (let r = 0; r < plan.repeats; r++) {
        plan.done("GLOBAL_STOP_ON_LOCAL_QUOTA", null, "run.ended stopped the whole run because a block's edit quota ran out");
        if (r === 0) this.expect("GLOBAL_STOP_ON_LOCAL_QUOTA", null, "run.ended reason edit_quota_exhausted");
      }
    }
    return { records: this.records, runEnded, eventFindings: this.eventFindings };
  }

  private push(type: Draft["type"], body: Record<string, unknown>, where: "head" | "tail" = "head"): void {
    this.rec[where].push({ type, body });
  }

  private expect(code: TFindingCode, turn: number | null, note: string): void {
    this.eventFindings.push({ code, turn, note });
  }

  private checkpointOf(turn: number): number {
    const review = this.input.policy.review;
    if (!review) return 0;
    let k = 0;
    if (review.everyTurns !== undefined) k = Math.max(k, Math.floor(turn / review.everyTurns));
    if (review.afterMs !== undefined) k = Math.max(k, Math.floor(this.elapsed / review.afterMs));
    return k;
  }

  private turn(t: number): void {
    const { rng, plan, turns } = this.input;
    this.rec = {
      turn: t,
      startMs: this.elapsed,
      durationMs: rng.int(6_000, 28_000),
      head: [],
      tail: [],
      marked: null,
      submissions: [],
      skipped: false,
    };
    this.records.push(this.rec);
    this.push("meter.time", { elapsedMs: this.elapsed });
    this.push("meter.requests", { used: this.used });
    const gaps = this.completeDispatches(t);
    for (const reading of this.pendingBlockReadings) this.push("block.edited", reading);
    this.pendingBlockReadings = [];

    const k = this.checkpointOf(t);
    const newCheckpoint = k >= 1 && k > this.lastCheckpoint;
    const previous = this.records[t - 1];
    if (
      plan.due("INCOMPLETE_TURN", t) &&
      !newCheckpoint &&
      t >= 1 &&
      t <= turns - 3 &&
      !previous?.forcedUncertainForResend &&
      !previous?.skipped
    ) {
      // The context assembler crashed before the request was final: readings only, nothing sent.
      this.rec.skipped = true;
      this.rec.durationMs = rng.int(4_000, 9_000);
      plan.done("INCOMPLETE_TURN", t, "the assembler crashed: the turn has readings but no request.final");
      this.expect("INCOMPLETE_TURN", t, "no request.final");
      this.elapsed += this.rec.durationMs;
      return;
    }

    let special: "uncertain_resent" | "resend" | "free" | null = null;
    if (newCheckpoint && t <= turns - 3 && plan.due("UNCERTAIN_RESENT", t)) special = "uncertain_resent";
    else if (!newCheckpoint && plan.due("REMINDER_RESEND", t)) special = "resend";
    else if (plan.due("FREE_REQUEST", t)) special = "free";

    this.assembleContext(t, special === "uncertain_resent");
    if (newCheckpoint) {
      this.lastCheckpoint = k;
      this.rec.newCheckpoint = k;
      if (this.input.policy.reviewer) this.reviewer(t, k);
    }
    this.submit(t, special);
    if (this.rec.outcome === "ok") this.act(t, gaps);
    this.elapsed += this.rec.durationMs;
  }

  /** Reviewer dispatches due to finish on this turn; returns whether one found evidence gaps. */
  private completeDispatches(t: number): boolean {
    let gaps = false;
    for (const dispatchId of this.completions.get(t) ?? []) {
      const found = this.input.rng.chance(0.45);
      gaps ||= found;
      const fund = this.input.rng.pick(FUNDS);
      this.push("reviewer.completed", {
        dispatchId,
        verdict: found ? "gaps_found" : "no_issues",
        notes: found ? `Tracking difference for ${fund} cites no source; holdings date unclear.` : "Objectives covered; sources cited.",
      });
      this.inProgress.delete(dispatchId);
    }
    this.completions.delete(t);
    return gaps;
  }

  private assembleContext(t: number, keepRoom: boolean): void {
    const { rng, rates, policy, plan } = this.input;
    const capacity = policy.context?.capacityBytes ?? 200_000;
    const stages = policy.context?.stages ?? [];
    this.required += this.growth;
    this.growth = 0;
    let ratio = this.required / capacity;
    if (!this.abandonedCandidatePending && plan.due("CONTEXT_FROM_ABANDONED_CANDIDATE", t)) {
      plan.take("CONTEXT_FROM_ABANDONED_CANDIDATE");
      this.abandonedCandidatePending = true;
    }

    if (this.abandonedCandidatePending && !keepRoom && ratio >= stages[1] && this.required <= capacity) {
      // A compaction that would save too little evidence is rolled back; the original request is sent.
      const candidateBytes = Math.min(this.required - 1, Math.floor(capacity * rng.between(stages[0], stages[1] - 0.005)));
      this.compaction(this.required, candidateBytes, "rolled_back");
      this.rec.forcedAbandonedCandidate = true;
      this.abandonedCandidatePending = false;
    } else {
      const threshold = this.abandonedCandidatePending ? 0.97 : this.threshold;
      if (ratio >= threshold) {
        const candidateBytes = Math.floor(this.required * rng.between(0.3, 0.55));
        if (rng.chance(rates.compactionRollback)) {
          this.compaction(this.required, candidateBytes, "rolled_back");
          if (!keepRoom && rng.chance(rates.packToLimit)) {
            // The original request is sent, trimmed by selective inclusion right up to the byte limit.
            this.required = capacity - rng.int(30, 900);
          } else if (rng.chance(0.35)) {
            const second = Math.floor(this.required * rng.between(0.45, 0.65));
            this.compaction(this.required, second, "adopted");
            this.required = second;
            this.threshold = rng.between(0.78, 0.93);
          }
        } else {
          this.compaction(this.required, candidateBytes, "adopted");
          this.required = candidateBytes;
          this.threshold = rng.between(0.78, 0.93);
        }
      }
      ratio = this.required / capacity;
      if (this.required > capacity)
        this.required = capacity - rng.int(0, 900); // selective inclusion
      else if (!keepRoom && ratio >= 0.95 && rng.chance(rates.packToLimit)) this.required = capacity - rng.int(30, 900);
    }
    this.rec.requiredBytes = this.required;
    const body: Record<string, unknown> = { requiredBytes: this.required };
    if (rng.chance(rates.providerTokens)) body.providerTokens = Math.round(this.required / rng.between(3.4, 4.1));
    this.push("request.final", body);
  }

  private compaction(originalBytes: number, candidateBytes: number, outcome: "adopted" | "rolled_back"): void {
    this.push("context.compaction", { originalBytes, candidateBytes, outcome });
    this.rec.lastCompaction = { originalBytes, candidateBytes, outcome };
  }

  /** R13 as the runtime applies it, at this point of the run. */
  private rule(): { granted: boolean; reasons: string[] } {
    const { policy } = this.input;
    const reasons: string[] = [];
    if (!policy.reviewer?.autoReviewAllowed) reasons.push("auto_review_disabled");
    if (policy.requests) {
      const usable = policy.requests.limit - policy.requests.deliveryReserve;
      if (usable - this.readingOfTurn() < (policy.reviewer?.minRequestsLeft ?? 0)) reasons.push("insufficient_budget");
    }
    if (this.inProgress.size > 0) reasons.push("review_in_progress");
    return { granted: reasons.length === 0, reasons };
  }

  /** The turn's requests reading (taken at the start of the turn). */
  private readingOfTurn(): number {
    const reading = this.rec.head.find((d) => d.type === "meter.requests");
    return reading!.body.used as number;
  }

  private reviewer(t: number, k: number): void {
    const { plan } = this.input;
    const candidateId = `rc-${String(k).padStart(3, "0")}`;
    const dispatchId = `rd-${String(k).padStart(3, "0")}`;
    this.push("reviewer.candidate", { candidateId, checkpoint: k });
    const rule = this.rule();
    const deny = (reasons: string[]) => {
      this.push("reviewer.admission", { candidateId, granted: false, reasons });
      this.push("reviewer.cancelled", { candidateId, reason: "admission_denied" });
    };

    if (plan.due("CANDIDATE_CANCELLED_BY_DROP", t)) {
      this.push("reviewer.cancelled", { candidateId, reason: "reminder_dropped" });
      plan.done("CANDIDATE_CANCELLED_BY_DROP", t, `candidate ${candidateId} cancelled because the review reminder was dropped`);
      this.expect("CANDIDATE_CANCELLED_BY_DROP", t, candidateId);
    } else if (plan.due("DISPATCH_WITHOUT_ADMISSION", t) && this.inProgress.size === 0) {
      this.dispatch(t, k, candidateId, dispatchId);
      plan.done("DISPATCH_WITHOUT_ADMISSION", t, `${dispatchId} dispatched with no admission recorded for ${candidateId}`);
      this.expect("DISPATCH_WITHOUT_ADMISSION", t, dispatchId);
    } else if (plan.due("CONCURRENT_DISPATCH", t) && rule.granted) {
      this.push("reviewer.admission", { candidateId, granted: true, reasons: [] });
      this.dispatch(t, k, candidateId, dispatchId);
      this.dispatch(t, k, candidateId, `${dispatchId}-retry`);
      plan.done(
        "CONCURRENT_DISPATCH",
        t,
        `the runtime re-dispatched ${candidateId} as ${dispatchId}-retry while ${dispatchId} was running`,
      );
      this.expect("CONCURRENT_DISPATCH", t, `${dispatchId}-retry`);
    } else if (plan.due("ADMISSION_RULE_MISMATCH", t) && (rule.granted || this.inProgress.size === 0)) {
      if (rule.granted) {
        deny(["insufficient_budget"]);
        plan.done("ADMISSION_RULE_MISMATCH", t, `admission of ${candidateId} denied on a stale budget reading; the rule grants it`);
      } else {
        this.push("reviewer.admission", { candidateId, granted: true, reasons: [] });
        this.dispatch(t, k, candidateId, dispatchId);
        plan.done(
          "ADMISSION_RULE_MISMATCH",
          t,
          `admission of ${candidateId} granted although the rule denies it (${rule.reasons.join(", ")})`,
        );
      }
      this.expect("ADMISSION_RULE_MISMATCH", t, candidateId);
    } else if (rule.granted) {
      this.push("reviewer.admission", { candidateId, granted: true, reasons: [] });
      this.dispatch(t, k, candidateId, dispatchId);
    } else {
      deny(rule.reasons);
    }
  }

  private dispatch(t: number, k: number, candidateId: string, dispatchId: string): void {
    const { rng, rates, turns } = this.input;
    this.push("reviewer.dispatched", { candidateId, dispatchId });
    this.push(
      "user.notified",
      { channel: "ui", message: `Reviewer is checking the draft against the research objectives (checkpoint ${k}).` },
      "tail",
    );
    this.inProgress.add(dispatchId);
    this.used += 1; // a Reviewer dispatch is a model request
    this.rec.durationMs += rng.int(500, 1_500);
    const at = Math.min(t + (rng.chance(rates.longDispatch) ? rng.int(11, 14) : rng.int(1, 4)), turns - 1);
    if (at > t) this.completions.set(at, [...(this.completions.get(at) ?? []), dispatchId]);
  }

  private submit(t: number, special: "uncertain_resent" | "resend" | "free" | null): void {
    const { rng, rates, plan } = this.input;
    const attempts: SubmissionBody[] = [];
    if (special === "uncertain_resent") {
      attempts.push({ outcome: "uncertain", purpose: "turn" });
      this.rec.forcedUncertainForResend = true;
      plan.take("UNCERTAIN_RESENT"); // recorded by the list phase, which re-sends the entry on turn t + 1
    } else if (special === "resend") {
      attempts.push({ outcome: "uncertain", purpose: "turn" }, { outcome: "ok", purpose: "reminder_resend" });
      plan.done("REMINDER_RESEND", t, "after an uncertain request the agent sent an extra request just to resend its reminders");
      this.expect("REMINDER_RESEND", t, "purpose reminder_resend");
    } else if (special === "free") {
      attempts.push({ outcome: "ok", purpose: "turn", countsAgainstBudget: false });
      plan.done("FREE_REQUEST", t, "a request the budget did not count (countsAgainstBudget: false)");
    } else {
      const first = this.outcome(1 - rates.failedAttempt - rates.uncertainAttempt, rates.failedAttempt, rates.uncertainAttempt);
      attempts.push({ outcome: first, purpose: "turn" });
      if (first === "failed" && rng.chance(rates.retryAfterFail)) {
        const retry: SubmissionBody = { outcome: this.outcome(0.9, 0.07, 0.03), purpose: "retry" };
        if (rng.chance(rates.freeRetry)) retry.countsAgainstBudget = false;
        attempts.push(retry);
      }
    }
    for (const [i, body] of attempts.entries()) {
      this.push("request.submitted", body);
      this.rec.submissions.push(body);
      if (body.countsAgainstBudget === false) this.expect("FREE_REQUEST", t, body.purpose);
      else this.used += 1;
      if (i > 0) this.rec.durationMs += rng.int(3_000, 12_000);
    }
    this.rec.outcome = attempts[attempts.length - 1].outcome;
  }

  private outcome(ok: number, failed: number, uncertain: number): Outcome {
    return this.input.rng.weighted<Outcome>([
      ["ok", ok],
      ["failed", failed],
      ["uncertain", uncertain],
    ]);
  }

  /** What the model did with an answered request. Its effects are facts of the next turn. */
  private act(t: number, gaps: boolean): void {
    const { rng, rates, turns } = this.input;
    const action = (kind: string, blockId?: string) => this.push("model.action", blockId ? { kind, blockId } : { kind }, "tail");
    if (gaps) action("check_evidence");
    if (t === turns - 1) {
      action("finalize");
      this.push("user.notified", { channel: "email", message: `Final comparison of ${FUNDS.join(", ")} is ready.` }, "tail");
      return;
    }
    if (t === turns - 2) {
      action("check_evidence");
      return;
    }
    this.growth += rng.int(300, 1_400); // the assistant's message and the tool call
    const next = this.blocks.length;
    if (next < this.blockTurns.length && t >= this.blockTurns[next]) {
      const id = `b${next + 1}`;
      const limit = OWN_LIMITS[id] ?? this.input.policy.edits?.perBlockLimit ?? 4;
      this.blocks.push({ id, used: 0, limit });
      action("append_block", id);
      this.pendingBlockReadings.push(OWN_LIMITS[id] !== undefined ? { blockId: id, used: 0, limit } : { blockId: id, used: 0 });
      this.push("user.notified", { channel: "ui", message: `Published section ${id}: ${SECTIONS[next % SECTIONS.length]}.` }, "tail");
      this.growth += rng.int(1_500, 4_000);
    } else if (this.blocks.length > 0 && rng.chance(this.editChance)) {
      const block = rng.weighted(this.blocks.map((b) => [b, b.used >= b.limit ? 0.25 : 1] as const));
      block.used += 1;
      action("edit_block", block.id);
      this.pendingBlockReadings.push({ blockId: block.id, used: block.used });
      this.growth += rng.int(300, 1_200);
    } else if (this.blocks.length > 0 && rng.chance(0.03)) {
      action("append_block", rng.pick(this.blocks).id);
      this.growth += rng.int(800, 2_500);
    } else if (rng.chance(rates.toolCall)) {
      action("tool_call");
      if (rng.chance(rates.toolFailure)) {
        this.used += 1; // a failed external request counts against the budget
        this.growth += rng.int(250, 450);
      } else {
        this.growth += this.toolResultBytes();
        if (rng.chance(0.05)) this.rec.durationMs += rng.int(30_000, 90_000);
      }
    } else {
      action("other");
    }
    if (t > 0 && t % 100 === 0) {
      this.push(
        "user.notified",
        { channel: "ui", message: `Progress: ${this.blocks.length} sections drafted, checking ${rng.pick(FUNDS)} holdings.` },
        "tail",
      );
    }
  }

  /** Bytes a tool result adds to the next request: fact sheets, holdings tables, search, prices. */
  private toolResultBytes(): number {
    const { rng } = this.input;
    const kind = rng.weighted([
      ["fact_sheet", 35],
      ["holdings", 30],
      ["search", 25],
      ["prices", 10],
    ] as const);
    switch (kind) {
      case "fact_sheet":
        return rng.int(2_400, 7_200);
      case "holdings":
        return rng.int(6_000, 24_000);
      case "search":
        return rng.int(1_200, 4_200);
      default:
        return rng.int(3_000, 12_000);
    }
  }
}
