import { describe, expect, it } from "vitest";
import { REVIEWER_FINDING_CODES, ZEvent, type TEvent, type TFindingCode } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { reviewerRows } from "./rows";

const REVIEWER_CODES: readonly TFindingCode[] = REVIEWER_FINDING_CODES;

function teachingRun(extra: object[]): TEvent[] {
  let n = 0;
  const e = (type: string, turn: number | undefined, body: object) =>
    ZEvent.parse({
      id: `e-${String(++n).padStart(3, "0")}`,
      runId: "teach",
      type,
      turn,
      ts: `2026-11-29T10:00:${String(n).padStart(2, "0")}Z`,
      body,
    });
  return [
    e("run.started", undefined, {
      task: "teaching scene",
      policy: {
        requests: { limit: 40, deliveryReserve: 4, stages: [0.5, 0.75, 0.9] },
        context: { capacityBytes: 10000, stages: [0.7, 0.85, 0.95] },
        review: { everyTurns: 10 },
        reviewer: { autoReviewAllowed: true, minRequestsLeft: 8 },
      },
      copy: { review: { "*": "Review checkpoint {checkpoint}" } },
    }),
    e("meter.requests", 10, { used: 28 }),
    e("request.final", 10, { requiredBytes: 9990 }),
    e("request.submitted", 10, { outcome: "ok" }),
    ...extra.map((x) => e(...(x as [string, number, object]))),
  ];
}

describe("Reviewer audit rows", () => {
  it("puts the recorded candidate beside the rebuild's, and a dropped suggestion beside both", () => {
    const events = teachingRun([
      ["reviewer.candidate", 10, { candidateId: "c1", checkpoint: 1 }],
      ["reviewer.admission", 10, { candidateId: "c1", granted: true, reasons: [] }],
      ["reviewer.dispatched", 10, { candidateId: "c1", dispatchId: "d1" }],
      ["reviewer.completed", 12, { dispatchId: "d1", verdict: "objectives met" }],
    ]);
    const [row] = reviewerRows(events, rebuild(events));
    expect(row).toMatchObject({
      candidateId: "c1",
      turn: 10,
      checkpoint: 1,
      source: "both",
      rebuilt: { checkpoint: 1, granted: true, reasons: [] },
      recorded: { granted: true, turn: 10 },
      rule: { granted: true, requestsLeft: 8, minRequestsLeft: 8, reviewInProgress: false },
      dispatches: [{ dispatchId: "d1", turn: 10, completedTurn: 12, verdict: "objectives met" }],
      suggestion: { stage: 1, status: "dropped" }, // no room: it does not cancel the candidate
      findings: [],
    });
  });

  it("flags a dispatch without admission, a cancellation by a drop and an admission against the rule", () => {
    const events = teachingRun([
      ["reviewer.candidate", 10, { candidateId: "c1", checkpoint: 1 }],
      ["reviewer.dispatched", 10, { candidateId: "c1", dispatchId: "d1" }],
      ["reviewer.candidate", 11, { candidateId: "c2" }],
      ["reviewer.admission", 11, { candidateId: "c2", granted: true, reasons: [] }], // d1 still running: rule says denied
      ["reviewer.cancelled", 11, { candidateId: "c2", reason: "reminder_dropped" }],
    ]);
    const rows = reviewerRows(events, rebuild(events));
    expect(rows.map((r) => [r.candidateId, r.findings])).toEqual([
      ["c1", ["DISPATCH_WITHOUT_ADMISSION"]],
      ["c2", ["ADMISSION_RULE_MISMATCH", "CANDIDATE_CANCELLED_BY_DROP"]],
    ]);
    expect(rows[1].rule).toMatchObject({ granted: false, reasons: ["review_in_progress"], reviewInProgress: true });
  });

  it("shows a candidate only the rebuild says was due", () => {
    const events = teachingRun([]);
    expect(reviewerRows(events, rebuild(events))).toMatchObject([{ candidateId: null, source: "rebuilt", turn: 10, checkpoint: 1 }]);
  });

  it.each([11, 12, 15])("finds exactly the rebuild's Reviewer findings in a generated run (seed %i)", (seed) => {
    const events = generateEtfRun({ seed, turns: 600, anomalies: true }).events.map((e) => ZEvent.parse(e));
    const decisions = rebuild(events);
    const fromRows = reviewerRows(events, decisions)
      .flatMap((r) => r.findings)
      .sort();
    const fromCore = decisions.findings
      .filter((f) => REVIEWER_CODES.includes(f.code))
      .map((f) => f.code)
      .sort();
    expect(fromRows).toEqual(fromCore);
    expect(fromCore.length).toBeGreaterThan(0);
  });
});
