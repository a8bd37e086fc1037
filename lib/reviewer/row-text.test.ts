import { describe, expect, it } from "vitest";
import type { TReviewerCandidateRow } from "@/lib/contracts";
import { admissionDisagrees, findingEvidence, recordedAdmission, ruleAdmission, sourceText } from "./row-text";

function row(overrides: Partial<TReviewerCandidateRow> = {}): TReviewerCandidateRow {
  return {
    runId: "r-17",
    task: "Compare fees",
    agent: "etf-agent",
    model: "m-large",
    candidateId: "rc-004",
    turn: 40,
    checkpoint: 4,
    source: "both",
    rebuilt: { checkpoint: 4, granted: true, reasons: [] },
    recorded: { granted: true, reasons: [], turn: 40 },
    rule: { granted: true, reasons: [], requestsLeft: 469, minRequestsLeft: 8, reviewInProgress: false },
    dispatches: [],
    cancelled: null,
    suggestion: { stage: 4, status: "delivered" },
    findings: [],
    ...overrides,
  };
}

describe("Reviewer row text", () => {
  it("states the rule's verdict with the facts of the turn", () => {
    expect(ruleAdmission(row())).toEqual({
      basis: "rule",
      outcome: "granted",
      details: ["requests left 469 ≥ 8", "no review in progress"],
    });
    const denied = row({
      rule: {
        granted: false,
        reasons: ["insufficient_budget", "review_in_progress"],
        requestsLeft: 6,
        minRequestsLeft: 8,
        reviewInProgress: true,
      },
    });
    expect(ruleAdmission(denied)).toEqual({ basis: "rule", outcome: "denied", details: ["requests left 6 < 8", "review in progress"] });
    const negative = row({
      rule: { granted: false, reasons: ["insufficient_budget"], requestsLeft: -1_204, minRequestsLeft: 8, reviewInProgress: false },
    });
    expect(ruleAdmission(negative).details).toEqual(["requests left -1,204 < 8"]);
    const meterOff = row({
      rule: { granted: false, reasons: ["auto_review_disabled"], requestsLeft: null, minRequestsLeft: 8, reviewInProgress: false },
    });
    expect(ruleAdmission(meterOff).details).toEqual(["auto review disabled"]);
  });

  it("falls back to the rebuild's own admission when none was recorded", () => {
    const r = row({ recorded: null, rule: null, rebuilt: { checkpoint: 4, granted: false, reasons: ["review_in_progress"] } });
    expect(ruleAdmission(r)).toEqual({ basis: "rebuild", outcome: "denied", details: ["review in progress"] });
    expect(ruleAdmission(row({ rule: null, rebuilt: null })).basis).toBe("none");
  });

  it("shows the recorded admission and whether it disagrees with the rule", () => {
    expect(recordedAdmission(row())).toEqual({ outcome: "granted", details: [] });
    expect(recordedAdmission(row({ recorded: null })).outcome).toBe("none");
    const denied = row({ recorded: { granted: false, reasons: ["insufficient_budget", "custom_reason"], turn: 40 } });
    expect(recordedAdmission(denied)).toEqual({ outcome: "denied", details: ["insufficient budget", "custom reason"] });
    expect(admissionDisagrees(denied)).toBe(true);
    expect(admissionDisagrees(row())).toBe(false);
    expect(admissionDisagrees(row({ recorded: null, rule: null }))).toBe(false);
  });

  it("says where the row came from", () => {
    expect(sourceText("rebuilt")).toBe("due by the rule, not recorded");
  });
});

describe("finding evidence", () => {
  it("says what in the row made each Reviewer finding", () => {
    const mismatch = row({
      recorded: { granted: false, reasons: ["insufficient_budget"], turn: 30 },
      findings: ["ADMISSION_RULE_MISMATCH"],
    });
    expect(findingEvidence(mismatch, "ADMISSION_RULE_MISMATCH")).toBe(
      "Recorded denied (insufficient budget); R13 on turn 30's facts says granted (requests left 469 ≥ 8, no review in progress).",
    );
    const dispatched = row({
      recorded: null,
      rule: null,
      dispatches: [{ dispatchId: "rd-013", turn: 130, completedTurn: 142, verdict: "gaps_found" }],
    });
    expect(findingEvidence(dispatched, "DISPATCH_WITHOUT_ADMISSION")).toBe(
      "Dispatched (rd-013) with no admission recorded for candidate rc-004; the review suggestion was delivered, which is not an admission.",
    );
    const dropped = row({ cancelled: { reason: "reminder_dropped", turn: 110 }, suggestion: { stage: 11, status: "dropped" } });
    expect(findingEvidence(dropped, "CANDIDATE_CANCELLED_BY_DROP")).toBe(
      "Cancelled at turn 110 with reason “reminder dropped”; the turn's review suggestion was dropped.",
    );
  });
});
