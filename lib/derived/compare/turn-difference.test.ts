import { describe, expect, it } from "vitest";
import type { TReminderDecision, TTurnDecision } from "@/lib/contracts";
import { bucketOfTurn, decisionDigests } from "./decision-digests";
import { firstDifferingTurn, turnDifference } from "./turn-difference";

const reminder = (over: Partial<TReminderDecision> = {}): TReminderDecision => ({
  key: "requests",
  subject: null,
  kind: "notice",
  stage: 1,
  text: "R1",
  bytes: 3,
  status: "delivered",
  ...over,
});
const turn = (n: number, reminders: TReminderDecision[] = [reminder()], granted: boolean | null = null): TTurnDecision => ({
  turn: n,
  requiredBytes: 100,
  capacityBytes: null,
  freeBytesAfter: null,
  meters: {},
  reminders,
  reviewer:
    granted === null ? null : { candidate: { checkpoint: 1 }, admission: { granted, reasons: granted ? [] : ["insufficient_budget"] } },
});

describe("turnDifference: what a turn decided, as compared between runs", () => {
  it.each([
    { name: "the same reminders and fate", a: turn(1), b: turn(1), expected: "same" },
    { name: "other words and bytes only", a: turn(1), b: turn(1, [reminder({ text: "Requests: 1", bytes: 11 })]), expected: "same" },
    {
      name: "another fate",
      a: turn(1),
      b: turn(1, [reminder({ status: "dropped", dropReason: "capacity", freeBytes: 0 })]),
      expected: "reminders",
    },
    { name: "another stage", a: turn(1), b: turn(1, [reminder({ stage: 2 })]), expected: "reminders" },
    {
      name: "another order",
      a: turn(1, [reminder(), reminder({ key: "time" })]),
      b: turn(1, [reminder({ key: "time" }), reminder()]),
      expected: "reminders",
    },
    { name: "another admission", a: turn(1, undefined, true), b: turn(1, undefined, false), expected: "reviewer" },
    { name: "both", a: turn(1, [], true), b: turn(1, undefined, false), expected: "reminders-and-reviewer" },
    { name: "a turn only A rebuilt", a: turn(1), b: undefined, expected: "only-a" },
    { name: "a turn only B rebuilt", a: undefined, b: turn(1), expected: "only-b" },
  ])("$name: $expected", ({ a, b, expected }) => {
    expect(turnDifference(a, b)).toBe(expected);
  });
});

describe("firstDifferingTurn", () => {
  const a = [turn(1), turn(2), turn(3), turn(5)];
  const b = [turn(1), turn(2, []), turn(3), turn(4), turn(5, [reminder({ stage: 3 })])];
  it.each([
    { range: { from: 0, to: 9 }, direction: "next" as const, expected: 2 },
    { range: { from: 3, to: 9 }, direction: "next" as const, expected: 4 },
    { range: { from: 0, to: 9 }, direction: "previous" as const, expected: 5 },
    { range: { from: 0, to: 3 }, direction: "previous" as const, expected: 2 },
    { range: { from: 3, to: 3 }, direction: "next" as const, expected: null },
  ])("$direction in $range.from–$range.to: $expected", ({ range, direction, expected }) => {
    expect(firstDifferingTurn(a, b, range, direction)).toBe(expected);
  });
});

describe("decisionDigests", () => {
  it("has one digest per bucket of 256 turn numbers holding a turn, equal where the decisions are", () => {
    const turns = [turn(0), turn(255), turn(256), turn(900)];
    const digests = decisionDigests(turns);
    expect(digests.map((d) => d.bucket)).toEqual([0, 1, 3]);
    expect(bucketOfTurn(255)).toBe(0);
    const reworded = decisionDigests(turns.map((t) => ({ ...t, reminders: t.reminders.map((r) => ({ ...r, text: "other", bytes: 5 })) })));
    expect(reworded).toEqual(digests);
    const skipped = decisionDigests([turn(0), turn(256), turn(900)]);
    expect(skipped[0].digest).not.toBe(digests[0].digest);
    expect(skipped.slice(1)).toEqual(digests.slice(1));
  });
});
