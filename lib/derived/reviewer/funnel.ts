import type { TReviewerFunnel } from "@/lib/contracts";
import type { ReviewerRow } from "./rows";

/**
 * The Reviewer funnel over audit rows (of one run or many: the run's columns play no part):
 * candidate → admission → dispatch → completion, with exits.
 */
export function reviewerFunnel(rows: readonly ReviewerRow[]): TReviewerFunnel {
  const funnel: TReviewerFunnel = {
    candidates: { total: rows.length, recorded: 0, rebuiltDue: 0, recordedNotDue: 0, dueNotRecorded: 0 },
    admissions: { recorded: 0, granted: 0, denied: 0, deniedByReason: {}, againstRule: 0 },
    dispatches: { total: 0, completed: 0, running: 0 },
    cancelled: { total: 0, byReason: {} },
    violations: {},
  };
  const bump = (record: Record<string, number>, key: string) => (record[key] = (record[key] ?? 0) + 1);
  for (const row of rows) {
    if (row.candidateId !== null) funnel.candidates.recorded++;
    if (row.rebuilt !== null) funnel.candidates.rebuiltDue++;
    if (row.source === "recorded") funnel.candidates.recordedNotDue++;
    if (row.source === "rebuilt") funnel.candidates.dueNotRecorded++;
    if (row.recorded) {
      funnel.admissions.recorded++;
      if (row.recorded.granted) funnel.admissions.granted++;
      else {
        funnel.admissions.denied++;
        for (const reason of row.recorded.reasons.length ? row.recorded.reasons : ["(no reason given)"])
          bump(funnel.admissions.deniedByReason, reason);
      }
    }
    for (const dispatch of row.dispatches) {
      funnel.dispatches.total++;
      if (dispatch.completedTurn === null) funnel.dispatches.running++;
      else funnel.dispatches.completed++;
    }
    if (row.cancelled) {
      funnel.cancelled.total++;
      bump(funnel.cancelled.byReason, row.cancelled.reason);
    }
    for (const code of row.findings) {
      funnel.violations[code] = (funnel.violations[code] ?? 0) + 1;
      if (code === "ADMISSION_RULE_MISMATCH") funnel.admissions.againstRule++;
    }
  }
  return funnel;
}
