import { describe, expect, it } from "vitest";
import { ZEvent, type TEvent } from "../contracts";
import { compareCodePoints } from "./code-points";
import { RunInputError } from "./errors";
import { inRunOrder } from "./run-order";

function ev(id: string, type: string, turn: number | undefined, ts: string, body: object = {}): TEvent {
  const bodies: Record<string, object> = {
    "run.started": { task: "t", policy: {} },
    "run.ended": { status: "completed" },
    "meter.requests": { used: 1 },
  };
  return ZEvent.parse({ id, runId: "r", type, ts, turn, body: { ...bodies[type], ...body } });
}

describe("run order", () => {
  it("puts run.started first and run.ended last whatever their ts, then turn, ts, id", () => {
    const events = [
      ev("a", "run.ended", undefined, "2026-01-01T00:00:00Z"),
      ev("b", "meter.requests", 2, "2026-01-01T00:00:01Z"),
      ev("c", "meter.requests", 1, "2026-01-01T00:00:09Z"),
      ev("d", "run.started", undefined, "2026-01-01T00:00:05Z"),
      ev("f", "meter.requests", 1, "2026-01-01T00:00:02Z"),
      ev("e", "meter.requests", 1, "2026-01-01T00:00:02Z"),
    ];
    expect(inRunOrder(events).map((e) => e.id)).toEqual(["d", "e", "f", "c", "b", "a"]);
  });

  it("compares ts as instants across zones and sub-millisecond digits", () => {
    const events = [
      ev("x1", "run.started", undefined, "2026-01-01T00:00:00Z"),
      ev("late", "meter.requests", 0, "2026-01-01T10:00:00.000+02:00"), // 08:00Z
      ev("early", "meter.requests", 0, "2026-01-01T09:00:00.000+02:00"), // 07:00Z
      ev("a", "meter.requests", 0, "2026-01-01T07:30:00.0005Z"),
      ev("b", "meter.requests", 0, "2026-01-01T07:30:00.00045Z"),
      ev("c", "meter.requests", 0, "2026-01-01T07:30:00.000450Z"), // same instant as b: id decides
    ];
    expect(inRunOrder(events).map((e) => e.id)).toEqual(["x1", "early", "b", "c", "a", "late"]);
  });

  it("drops exact repeats and rejects an id reused with other content", () => {
    const a = ev("a", "meter.requests", 0, "2026-01-01T00:00:00Z");
    const start = ev("s", "run.started", undefined, "2026-01-01T00:00:00Z");
    expect(inRunOrder([start, a, { ...a }, a])).toHaveLength(2);
    const other = ev("a", "meter.requests", 0, "2026-01-01T00:00:00Z", { used: 2 });
    expect(() => inRunOrder([start, a, other])).toThrow(RunInputError);
  });
});

describe("code point order", () => {
  it.each([
    ["a", "b", -1],
    ["b10", "b9", -1],
    ["b", "b1", -1],
    ["\u{ffff}", "\u{10000}", -1], // UTF-16 order would say the opposite
    ["\u{e000}", "\u{1f600}", -1],
    ["Z", "a", -1],
    ["same", "same", 0],
  ])("%j before %j", (a, b, sign) => {
    expect(Math.sign(compareCodePoints(a, b))).toBe(sign);
    expect(Math.sign(compareCodePoints(b, a))).toBe(sign === 0 ? 0 : -sign);
  });
});
