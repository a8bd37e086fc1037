import { describe, expect, it } from "vitest";
import type { TFinding, TReminderDecision, TTurnDecision } from "@/lib/contracts";
import { rewrittenFromTurn, triageCounts, triageMarks } from "./triage";

function reminder(status: TReminderDecision["status"]): TReminderDecision {
  return { key: "context", subject: null, kind: "notice", stage: 1, text: "x", bytes: 10, status };
}
function turn(n: number, ...statuses: TReminderDecision["status"][]): TTurnDecision {
  return {
    turn: n,
    requiredBytes: 100,
    capacityBytes: 1000,
    freeBytesAfter: 900,
    meters: {} as TTurnDecision["meters"],
    reminders: statuses.map(reminder),
    reviewer: null,
  };
}
const finding = (t: number | null): TFinding => ({ code: "MISSING_REMINDER", turn: t, detail: "" });

describe("triageMarks", () => {
  it.each([
    { name: "no reminders, no findings", turns: [turn(0), turn(1)], findings: [], want: [] },
    {
      name: "one mark per turn and kind, however many reminders",
      turns: [turn(3, "dropped", "dropped", "delivered"), turn(4, "delivered")],
      findings: [],
      want: [{ kind: "drop", turn: 3 }],
    },
    {
      name: "failed and uncertain are one kind; pending and delivered are not marked",
      turns: [turn(1, "failed"), turn(2, "uncertain"), turn(3, "pending"), turn(4, "delivered")],
      findings: [],
      want: [
        { kind: "delivery", turn: 1 },
        { kind: "delivery", turn: 2 },
      ],
    },
    {
      name: "findings by turn; run-level findings (no turn) are not marks; a turn without a decision still is",
      turns: [turn(1)],
      findings: [finding(7), finding(1), finding(7), finding(null)],
      want: [
        { kind: "finding", turn: 1 },
        { kind: "finding", turn: 7 },
      ],
    },
    {
      name: "kinds in order drop, finding, delivery; turns ascending within a kind",
      turns: [turn(9, "dropped", "failed"), turn(2, "dropped")],
      findings: [finding(9)],
      want: [
        { kind: "drop", turn: 2 },
        { kind: "drop", turn: 9 },
        { kind: "finding", turn: 9 },
        { kind: "delivery", turn: 9 },
      ],
    },
  ])("$name", ({ turns, findings, want }) => {
    expect(triageMarks(turns, findings)).toEqual(want);
  });

  it("counts turns per kind", () => {
    const marks = triageMarks([turn(1, "dropped", "uncertain"), turn(2, "dropped")], [finding(2)]);
    expect(triageCounts(marks)).toEqual({ drop: 2, finding: 1, delivery: 1 });
    expect(triageCounts([])).toEqual({ drop: 0, finding: 0, delivery: 0 });
  });
});

describe("rewrittenFromTurn", () => {
  const turns = [turn(0), turn(2), turn(5)];
  it.each([
    { index: 0, want: 0 },
    { index: 2, want: 5 },
    { index: 3, want: 6 },
  ])("index $index → turn $want", ({ index, want }) => {
    expect(rewrittenFromTurn(turns, index)).toBe(want);
  });
  it("is 0 for a run without turns", () => expect(rewrittenFromTurn([], 0)).toBe(0));
});
