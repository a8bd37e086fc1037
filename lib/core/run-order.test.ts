import { describe, expect, it } from "vitest";
import { ZEvent, type TEvent } from "@/lib/contracts";
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

describe("run order around a leap second and early years", () => {
  it("puts leap-second events after the minute's last real millisecond, in fraction order, before the next minute", () => {
    const at = (id: string, ts: string) => ZEvent.parse({ id, runId: "leap", type: "meter.time", ts, turn: 0, body: { elapsedMs: 1 } });
    const expected = [
      at("z1", "2016-12-31T23:59:59.999Z"),
      at("z2", "2016-12-31T23:59:59.9995Z"),
      at("a1", "2016-12-31T23:59:60Z"),
      at("a2", "2016-12-31T23:59:60.2Z"),
      at("a3", "2017-01-01T05:29:60.7+05:30"),
      at("a4", "2017-01-01T00:00:00.000Z"),
      at("a5", "2017-01-01T00:00:00.3Z"),
    ];
    expect(inRunOrder([...expected].reverse()).map((e) => e.id)).toEqual(expected.map((e) => e.id));
  });

  it("orders years 0001–0099 as themselves, before every later year", () => {
    const at = (id: string, ts: string) => ZEvent.parse({ id, runId: "old", type: "meter.time", ts, turn: 0, body: { elapsedMs: 1 } });
    const expected = [
      at("c", "0001-01-01T00:00:00Z"),
      at("b", "0050-06-15T12:00:00.000Z"),
      at("a", "0099-12-31T23:59:59.999Z"),
      at("d", "1950-01-01T00:00:00Z"),
    ];
    expect(inRunOrder([...expected].reverse()).map((e) => e.id)).toEqual(["c", "b", "a", "d"]);
  });
});
