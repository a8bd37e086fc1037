import { describe, expect, it } from "vitest";
import type { TReviewerCandidateRow } from "@/lib/contracts";
import { reviewerFunnel } from "./funnel";

const base: TReviewerCandidateRow = {
  runId: "r",
  task: null,
  agent: null,
  model: null,
  candidateId: "c",
  turn: 10,
  checkpoint: 1,
  source: "both",
  rebuilt: { checkpoint: 1, granted: true, reasons: [] },
  recorded: null,
  rule: null,
  dispatches: [],
  cancelled: null,
  suggestion: null,
  findings: [],
};

describe("Reviewer funnel", () => {
  it("counts each stage and each exit once", () => {
    const rows: TReviewerCandidateRow[] = [
      {
        ...base,
        recorded: { granted: true, reasons: [], turn: 10 },
        dispatches: [{ dispatchId: "d1", turn: 10, completedTurn: 12, verdict: "ok" }],
      },
      { ...base, candidateId: "c2", recorded: { granted: false, reasons: ["insufficient_budget", "review_in_progress"], turn: 20 } },
      {
        ...base,
        candidateId: "c3",
        source: "recorded",
        rebuilt: null,
        recorded: { granted: true, reasons: [], turn: 30 },
        findings: ["ADMISSION_RULE_MISMATCH"],
        dispatches: [{ dispatchId: "d2", turn: 30, completedTurn: null, verdict: null }],
      },
      { ...base, candidateId: null, source: "rebuilt" },
      { ...base, candidateId: "c5", cancelled: { reason: "reminder_dropped", turn: 50 }, findings: ["CANDIDATE_CANCELLED_BY_DROP"] },
    ];
    expect(reviewerFunnel(rows)).toEqual({
      candidates: { total: 5, recorded: 4, rebuiltDue: 4, recordedNotDue: 1, dueNotRecorded: 1 },
      admissions: { recorded: 3, granted: 2, denied: 1, deniedByReason: { insufficient_budget: 1, review_in_progress: 1 }, againstRule: 1 },
      dispatches: { total: 2, completed: 1, running: 1 },
      cancelled: { total: 1, byReason: { reminder_dropped: 1 } },
      violations: { ADMISSION_RULE_MISMATCH: 1, CANDIDATE_CANCELLED_BY_DROP: 1 },
    });
  });

  it("is all zeros without rows", () => {
    expect(reviewerFunnel([]).candidates.total).toBe(0);
  });
});
