import type { TFindingCode, TPolicy, TRecordedReminder, TReminderDecision, TRunDecisions, TTurnDecision } from "@/lib/contracts";
import type { EtfRates } from "./etf-options";
import { labelOf, stageOf, type TurnRecord } from "./etf-model";
import type { AnomalyPlan } from "./etf-plan";
import type { Rng } from "./prng";

/** Codes injected by editing the agent's own lists after the rebuild. */
export const LIST_CODES: readonly TFindingCode[] = [
  "MISSING_REMINDER",
  "UNEXPECTED_REMINDER",
  "STAGE_MISMATCH",
  "DUPLICATE_REMINDER",
  "MARKED_NOT_SUBMITTED",
];

export interface ListsInput {
  records: TurnRecord[];
  /** The rebuild of the facts alone (no lists yet): what the agent's coordinator decided. */
  decisions: TRunDecisions;
  policy: TPolicy;
  plan: AnomalyPlan;
  rates: EtfRates;
  rng: Rng;
}

function entryOf(reminder: TReminderDecision): TRecordedReminder {
  return reminder.subject === null
    ? { key: reminder.key, stage: reminder.stage }
    : { key: reminder.key, subject: reminder.subject, stage: reminder.stage };
}

const clone = (entry: TRecordedReminder): TRecordedReminder => ({ ...entry });

/**
 * Phase 3 of the ETF run: the agent copies its coordinator, so each turn's submission list is the
 * rebuild's included reminders (status other than dropped) and its ledger marks what an answered
 * or uncertain request carried. Then the requested deviations are written into those lists, and
 * the model's follow-ups to delivered review suggestions are added.
 */
export function fillAgentLists(input: ListsInput): void {
  const { records, decisions, policy, plan, rates, rng } = input;
  const byTurn = new Map<number, TTurnDecision>(decisions.turns.map((d) => [d.turn, d]));
  const lists = new Map<number, TRecordedReminder[]>();
  const extraMarks = new Map<number, TRecordedReminder[]>();
  for (const rec of records) {
    if (rec.skipped) continue;
    const decision = byTurn.get(rec.turn);
    if (!decision) throw new Error(`the rebuild skipped turn ${rec.turn}, which has a request.final`);
    lists.set(rec.turn, decision.reminders.filter((r) => r.status !== "dropped").map(entryOf));
  }
  const blocked = new Set<number>();
  const block = (turn: number) => [turn - 1, turn, turn + 1].forEach((t) => blocked.add(t));

  for (const rec of records) {
    if (rec.forcedAbandonedCandidate && policy.context && rec.lastCompaction) {
      const list = lists.get(rec.turn)!;
      const stage = stageOf(rec.lastCompaction.candidateBytes, policy.context.capacityBytes, policy.context.stages);
      const kept = list.filter((entry) => entry.key !== "context");
      list.splice(0, list.length, ...kept, { key: "context", stage });
      plan.record(
        "CONTEXT_FROM_ABANDONED_CANDIDATE",
        rec.turn,
        `context stage ${stage} taken from the rolled-back candidate (${rec.lastCompaction.candidateBytes} bytes) instead of the ${rec.requiredBytes} bytes sent`,
      );
      block(rec.turn);
    }
    if (rec.forcedUncertainForResend) {
      const source = lists.get(rec.turn) ?? [];
      const next = lists.get(rec.turn + 1);
      const entry = source.find((e) => e.key === "review") ?? source.find((e) => e.key !== "edits");
      if (!entry || !next) {
        plan.fail("UNCERTAIN_RESENT", `turn ${rec.turn}'s uncertain request carried no notice or suggestion to resend`);
      } else {
        next.push(clone(entry));
        plan.record("UNCERTAIN_RESENT", rec.turn + 1, `${labelOf(entry)} from uncertain turn ${rec.turn} sent again`);
      }
      block(rec.turn);
      block(rec.turn + 1);
    }
  }

  for (const code of LIST_CODES) {
    if (!plan.wants(code)) continue;
    for (const target of plan.pending(code)) {
      let placed = false;
      for (let t = target; t < records.length && !placed; t++) {
        const rec = records[t];
        const list = lists.get(t);
        if (!list || blocked.has(t) || rec.outcome !== "ok" || records[t - 1]?.outcome === "uncertain") continue;
        const note = deviate(code, list, byTurn.get(t)!, rng, (extra) => extraMarks.set(t, [...(extraMarks.get(t) ?? []), extra]));
        if (note === null) continue;
        plan.done(code, t, note);
        block(t);
        placed = true;
      }
      if (!placed) {
        plan.take(code);
        plan.fail(code, `no fitting turn at or after turn ${target}`);
      }
    }
  }

  for (const rec of records) {
    const list = lists.get(rec.turn);
    if (!list) continue;
    for (const submission of rec.submissions) submission.reminders = list.map(clone);
    const marks = rec.outcome !== "failed" && !rec.forcedUncertainForResend ? list.map(clone) : [];
    marks.push(...(extraMarks.get(rec.turn) ?? []));
    rec.marked = marks.length > 0 ? marks : null;
  }

  for (const decision of decisions.turns) {
    const next = records[decision.turn + 1];
    const reviewed = decision.reminders.some((r) => r.key === "review" && r.status === "delivered");
    if (next && reviewed && rng.chance(rates.reviewFollowUp)) {
      next.tail.push({ type: "model.action", body: { kind: rng.pick(["review_objectives", "check_evidence"]) } });
    }
  }
}

/** Writes one deviation into a turn's list; returns a note, or null when the turn does not fit. */
function deviate(
  code: TFindingCode,
  list: TRecordedReminder[],
  decision: TTurnDecision,
  rng: Rng,
  mark: (extra: TRecordedReminder) => void,
): string | null {
  switch (code) {
    case "MISSING_REMINDER": {
      if (list.length === 0) return null;
      const [removed] = list.splice(rng.int(0, list.length - 1), 1);
      return `the agent left ${labelOf(removed)} out of its request`;
    }
    case "UNEXPECTED_REMINDER": {
      const meters = decision.meters;
      const key = (["requests", "time", "context"] as const).find((k) => meters[k] && !list.some((e) => e.key === k));
      if (!key) return null;
      const entry = { key, stage: Math.max(1, meters[key]!.stage) };
      list.push(entry);
      return `the agent repeated ${labelOf(entry)}, which its ledger already had`;
    }
    case "STAGE_MISMATCH": {
      if (list.length === 0) return null;
      const entry = list[rng.int(0, list.length - 1)];
      const was = entry.stage;
      entry.stage = was >= 2 ? was - 1 : was + 1;
      return `the agent recorded ${entry.key}${entry.subject ? ` ${entry.subject}` : ""} at stage ${entry.stage}, the coordinator's stage is ${was}`;
    }
    case "DUPLICATE_REMINDER": {
      if (list.length === 0) return null;
      const entry = list[rng.int(0, list.length - 1)];
      list.push(clone(entry));
      return `the agent put ${labelOf(entry)} into its request twice`;
    }
    case "MARKED_NOT_SUBMITTED": {
      if (list.length === 0) return null;
      const dropped = decision.reminders.find((r) => r.status === "dropped");
      if (dropped) {
        const entry = entryOf(dropped);
        mark(entry);
        return `the agent's ledger marked ${labelOf(entry)} as delivered although it was dropped for capacity`;
      }
      const entry = { ...list[0], stage: list[0].stage + 1 };
      mark(entry);
      return `the agent's ledger marked ${labelOf(entry)}, a stage it did not send`;
    }
    default:
      return null;
  }
}
