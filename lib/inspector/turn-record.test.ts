import { describe, expect, it } from "vitest";
import { readTurnRecord, statusOfOutcome } from "./turn-record";

let n = 0;
const ev = (type: string, body: Record<string, unknown>, turn = 7) => ({
  id: `e-${String(++n).padStart(4, "0")}`,
  runId: "r",
  type,
  ts: `2026-11-29T10:00:${String(n % 60).padStart(2, "0")}.000Z`,
  turn,
  body,
});

describe("readTurnRecord", () => {
  it("takes the LAST request.submitted in run order as the turn's submission, keeping every one", () => {
    const record = readTurnRecord([
      ev("request.final", { requiredBytes: 100 }),
      ev("request.submitted", { outcome: "failed", reminders: [] }),
      ev("request.submitted", { outcome: "ok", purpose: "retry", countsAgainstBudget: false }),
      ev("request.submitted", { outcome: "uncertain", purpose: "reminder_resend", reminders: [{ key: "time", stage: 1 }] }),
    ]);
    expect(record.submissions.map((s) => s.body.outcome)).toEqual(["failed", "ok", "uncertain"]);
    expect(record.submission?.body.purpose).toBe("reminder_resend");
    // countsAgainstBudget defaults to true.
    expect(record.submissions.map((s) => s.body.countsAgainstBudget)).toEqual([true, false, true]);
  });

  it.each([
    [[], null],
    [[ev("request.final", { requiredBytes: 1 })], null],
  ])("a turn without a submission is pending (%#)", (events, submission) => {
    const record = readTurnRecord(events);
    expect(record.submission).toBe(submission);
    expect(statusOfOutcome(record.submission)).toBe("pending");
  });

  it("keeps Reviewer events, notifications and model actions in lanes of their own (R12)", () => {
    const record = readTurnRecord([
      ev("meter.requests", { used: 3 }),
      ev("reviewer.candidate", { candidateId: "c1", checkpoint: 1 }),
      ev("reviewer.admission", { candidateId: "c1", granted: true, reasons: [] }),
      ev("user.notified", { channel: "email", message: "halfway" }),
      ev("model.action", { kind: "review_objectives" }),
      ev("reviewer.dispatched", { candidateId: "c1", dispatchId: "d1" }),
      ev("reminders.marked", { reminders: [{ key: "review", stage: 1 }] }),
      ev("context.compaction", { originalBytes: 10, candidateBytes: 5, outcome: "rolled_back" }),
      ev("block.edited", { blockId: "b1", used: 1 }),
      { id: "bad", type: "nope" },
    ]);
    expect(record.reviewer.map((e) => e.type)).toEqual(["reviewer.candidate", "reviewer.admission", "reviewer.dispatched"]);
    expect(record.notifications.map((e) => e.body.message)).toEqual(["halfway"]);
    expect(record.actions.map((e) => e.body.kind)).toEqual(["review_objectives"]);
    expect(record.marked).toHaveLength(1);
    expect(record.compactions).toHaveLength(1);
    expect(record.facts.map((e) => e.type)).toEqual(["meter.requests", "block.edited"]);
    expect(record.events).toHaveLength(9);
    expect(record.unreadable).toBe(1);
  });
});

describe("statusOfOutcome (R10)", () => {
  it.each([
    ["ok", "delivered"],
    ["failed", "failed"],
    ["uncertain", "uncertain"],
  ] as const)("%s → %s", (outcome, status) => {
    const record = readTurnRecord([ev("request.submitted", { outcome })]);
    expect(statusOfOutcome(record.submission)).toBe(status);
  });
});
