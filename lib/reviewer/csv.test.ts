import { describe, expect, it } from "vitest";
import type { TReviewerListRow } from "@/lib/contracts";
import { csvLine, REVIEWER_CSV_COLUMNS, reviewerCsvCells } from "./csv";

const row: TReviewerListRow = {
  runId: "r-17",
  task: 'Compare "VOO", IVV',
  agent: "etf",
  model: "m",
  candidateId: "=cmd",
  turn: 40,
  checkpoint: 4,
  source: "both",
  rebuilt: { checkpoint: 4, granted: false, reasons: ["insufficient_budget"] },
  recorded: { granted: true, reasons: [], turn: 40 },
  rule: { granted: false, reasons: ["insufficient_budget"], requestsLeft: 6, minRequestsLeft: 8, reviewInProgress: false },
  dispatches: [{ dispatchId: "d-9", turn: 40, completedTurn: 44, verdict: "ok" }],
  cancelled: null,
  suggestion: { stage: 4, status: "dropped" },
  findings: ["ADMISSION_RULE_MISMATCH"],
  reviewKey: "c:=cmd",
  review: {
    runId: "r-17",
    reviewKey: "c:=cmd",
    turn: 40,
    verdict: "unnecessary",
    comment: "budget was short",
    reviewer: { personId: "p1", name: "Ada" },
    reviewedAt: "2026-12-01T10:00:00.000Z",
    ruleFindings: ["ADMISSION_RULE_MISMATCH"],
    dispatched: true,
    assignee: null,
    assignedAt: null,
    version: 2,
    updatedAt: "2026-12-01T10:00:00.000Z",
  },
};

describe("Reviewer audit CSV", () => {
  it("has one cell per column", () => {
    expect(reviewerCsvCells(row)).toHaveLength(REVIEWER_CSV_COLUMNS.length);
  });

  it.each([
    [["a", 1, true, null], "a,1,true,\r\n"],
    [['say "hi"', "x,y", "line\nbreak"], '"say ""hi""","x,y","line\nbreak"\r\n'],
    [["=SUM(A1)", "-3", "+x", "@y"], "'=SUM(A1),'-3,'+x,'@y\r\n"],
    [[-3, 0], "-3,0\r\n"],
  ])("%j → %j", (cells, line) => {
    expect(csvLine(cells)).toBe(line);
  });

  it("writes the rule's verdict next to the recorded one", () => {
    const cells = Object.fromEntries(REVIEWER_CSV_COLUMNS.map((c, i) => [c, reviewerCsvCells(row)[i]]));
    expect(cells).toMatchObject({
      recorded_admission: "granted",
      rule_verdict: "denied",
      rule_reasons: "insufficient_budget",
      requests_left: 6,
      suggestion_status: "dropped",
      findings: "ADMISSION_RULE_MISMATCH",
      candidate_id: "=cmd",
      review_key: "c:=cmd",
      review_verdict: "unnecessary",
      review_comment: "budget was short",
      reviewed_by: "Ada",
      assignee: null,
    });
    expect(csvLine(reviewerCsvCells(row))).toContain(`"Compare ""VOO"", IVV"`);
  });
});
