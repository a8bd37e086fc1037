import type { TDecisionsSummary, TFindingCode, TRunDecisions } from "@/lib/contracts";

/** Its shape is the contract's, so the stored copy is parsed with the same schema. */
export type DecisionsSummary = TDecisionsSummary;

/** Counts for lists and headers, derived from a run's decisions. */
export function summarizeDecisions(decisions: TRunDecisions): DecisionsSummary {
  const reminders = { delivered: 0, dropped: 0, failed: 0, uncertain: 0, pending: 0 };
  for (const turn of decisions.turns) for (const reminder of turn.reminders) reminders[reminder.status]++;
  const findingsByCode: Partial<Record<TFindingCode, number>> = {};
  for (const finding of decisions.findings) findingsByCode[finding.code] = (findingsByCode[finding.code] ?? 0) + 1;
  return {
    rebuiltTurns: decisions.turns.length,
    skippedTurns: findingsByCode.INCOMPLETE_TURN ?? 0,
    reminders,
    findings: decisions.findings.length,
    findingsByCode,
    lastMeters: decisions.turns.at(-1)?.meters ?? null,
  };
}
