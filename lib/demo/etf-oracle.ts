import { FINDING_CODES, type TFindingCode, type TPolicy, type TRecordedReminder, type TRunDecisions } from "@/lib/contracts";
import { labelOf, stageOf, type ExpectedFinding, type TurnRecord } from "./etf-model";

const pairOf = (e: { key: string; subject?: string | null }) => `${e.key}\u0000${e.subject ?? ""}`;
const same = (a: TRecordedReminder, b: TRecordedReminder) => pairOf(a) === pairOf(b) && a.stage === b.stage;

/**
 * The agent-comparison findings (contract §7) this run should produce, worked out independently of
 * lib/core from what the generator wrote: the final lists, the marks, the compactions and the
 * rebuild's included reminders. A test oracle, not a second implementation to ship.
 */
export function expectedComparisons(records: readonly TurnRecord[], decisions: TRunDecisions, policy: TPolicy): ExpectedFinding[] {
  const out: ExpectedFinding[] = [];
  const byTurn = new Map(decisions.turns.map((d) => [d.turn, d]));
  for (const rec of records) {
    const decision = byTurn.get(rec.turn);
    if (rec.skipped || !decision) continue;
    const t = rec.turn;
    const add = (code: TFindingCode, note: string) => out.push({ code, turn: t, note });
    const submission = rec.submissions[rec.submissions.length - 1];
    const list = submission?.reminders;

    if (list) {
      const agent = new Map<string, { count: number; highest: number; entry: TRecordedReminder }>();
      for (const entry of list) {
        const seen = agent.get(pairOf(entry));
        if (seen) {
          seen.count++;
          seen.highest = Math.max(seen.highest, entry.stage);
        } else agent.set(pairOf(entry), { count: 1, highest: entry.stage, entry });
      }
      const included = decision.reminders.filter((r) => r.status !== "dropped");
      const includedPairs = new Set(included.map(pairOf));
      for (const r of included) if (!agent.has(pairOf(r))) add("MISSING_REMINDER", `${r.key} ${r.subject ?? ""} stage ${r.stage}`);
      for (const [pair, { entry }] of agent) if (!includedPairs.has(pair)) add("UNEXPECTED_REMINDER", labelOf(entry));
      for (const r of included) {
        const a = agent.get(pairOf(r));
        if (a && a.highest !== r.stage) add("STAGE_MISMATCH", `${r.key}: agent ${a.highest}, rebuild ${r.stage}`);
      }
      for (const { count, entry } of agent.values()) if (count > 1) add("DUPLICATE_REMINDER", labelOf(entry));
    }

    for (const entry of rec.marked ?? []) {
      if (!submission || submission.outcome === "failed" || (list && !list.some((e) => same(e, entry)))) {
        add("MARKED_NOT_SUBMITTED", labelOf(entry));
      }
    }

    const compaction = rec.lastCompaction;
    if (list && policy.context && compaction?.outcome === "rolled_back") {
      const context = list.filter((e) => e.key === "context");
      if (context.length > 0) {
        const agentStage = Math.max(...context.map((e) => e.stage));
        const { capacityBytes, stages } = policy.context;
        const candidateStage = stageOf(compaction.candidateBytes, capacityBytes, stages);
        const sentStage = stageOf(rec.requiredBytes!, capacityBytes, stages);
        if (agentStage === candidateStage && agentStage !== sentStage) add("CONTEXT_FROM_ABANDONED_CANDIDATE", `stage ${agentStage}`);
      }
    }

    const previous = records[t - 1];
    const before = previous?.submissions[previous.submissions.length - 1];
    if (previous && !previous.skipped && before?.outcome === "uncertain" && before.reminders && list) {
      for (const entry of before.reminders) {
        if (entry.key !== "edits" && list.some((e) => same(e, entry))) add("UNCERTAIN_RESENT", labelOf(entry));
      }
    }
  }
  return out;
}

const RANK = new Map<TFindingCode, number>(FINDING_CODES.map((code, i) => [code, i]));

/** Sorted like RunDecisions.findings: by turn (run-level last), then in contract §7 order. */
export function inFindingOrder<T extends { code: TFindingCode; turn: number | null }>(findings: readonly T[]): T[] {
  const turnKey = (turn: number | null) => (turn === null ? Infinity : turn);
  return findings
    .map((f, at) => ({ f, at }))
    .sort((a, b) => turnKey(a.f.turn) - turnKey(b.f.turn) || RANK.get(a.f.code)! - RANK.get(b.f.code)! || a.at - b.at)
    .map(({ f }) => f);
}
