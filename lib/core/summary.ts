import type { TFindingCode, TRunDecisions, TTurnMeters } from "../contracts";

export interface DecisionsSummary {
  rebuiltTurns: number;
  skippedTurns: number;
  reminders: { delivered: number; dropped: number; failed: number; uncertain: number; pending: number };
  findings: number;
  findingsByCode: Partial<Record<TFindingCode, number>>;
  /** The meters of the last rebuilt turn, each in its own unit. */
  lastMeters: TTurnMeters | null;
}

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
