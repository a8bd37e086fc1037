import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dottedPath, type TProblem } from "./issues";
import { unstorableStringReason } from "./primitives";
import { checkEvent, MAX_EVENT_DEPTH, unstorableProblem } from "./storable";

const base = { id: "e-1", runId: "r-1", type: "meter.requests", ts: "2026-11-29T10:00:05.120Z", turn: 3, body: { used: 5 } };
const problemOf = (raw: unknown) => {
  const result = checkEvent(raw);
  return result.ok ? null : result.problems[0];
};

function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = i % 2 ? { x: value } : [value];
  return value;
}

describe("checkEvent: every value the API accepts is storable", () => {
  it("accepts an ordinary event and keeps only the known properties", () => {
    const result = checkEvent({ ...base, extra: { future: true } });
    expect(result).toEqual({ ok: true, event: base });
  });

  it("rejects U+0000 and lone surrogates in any string, naming the path", () => {
    expect(problemOf({ ...base, id: "e\u0000" })).toMatchObject({ path: "id", message: expect.stringMatching(/U\+0000/) });
    expect(problemOf({ ...base, type: "user.notified", body: { channel: "c", message: "hi \ud800" } })).toMatchObject({
      path: "body.message",
      message: expect.stringMatching(/lone UTF-16 surrogate U\+D800/),
    });
    expect(problemOf({ ...base, type: "user.notified", body: { channel: "\udc00x", message: "m" } })).toMatchObject({
      path: "body.channel",
    });
    expect(problemOf({ ...base, unknown: ["ok", "bad\u0000"] })).toMatchObject({ path: "unknown.1" });
    expect(problemOf({ ...base, ["k\u0000"]: 1 })).toMatchObject({ path: "k\u0000", message: expect.stringMatching(/property name/) });
    // a proper pair is fine
    expect(checkEvent({ ...base, type: "user.notified", body: { channel: "c", message: "😀 \ud83d\ude00" } }).ok).toBe(true);
  });

  it("rejects integers beyond 2^53 − 1 and turns beyond 2,147,483,647", () => {
    expect(problemOf({ ...base, body: { used: 2 ** 53 } })).toMatchObject({
      path: "body.used",
      message: expect.stringMatching(/at most 9007199254740991/),
    });
    expect(checkEvent({ ...base, body: { used: 2 ** 53 - 1 } }).ok).toBe(true);
    expect(problemOf({ ...base, turn: 2 ** 31 })).toMatchObject({ path: "turn", message: expect.stringMatching(/at most 2147483647/) });
    expect(checkEvent({ ...base, turn: 2 ** 31 - 1 }).ok).toBe(true);
    expect(problemOf({ ...base, body: { used: 1e300 } })).toMatchObject({ path: "body.used" });
  });

  it(`allows ${MAX_EVENT_DEPTH} levels of nesting and rejects deeper ones without recursing`, () => {
    expect(checkEvent({ ...base, extra: nested(MAX_EVENT_DEPTH - 1) }).ok).toBe(true);
    const deep = problemOf({ ...base, extra: nested(MAX_EVENT_DEPTH) });
    expect(deep).toMatchObject({ message: expect.stringMatching(/nested too deeply/) });
    expect(deep!.path.startsWith("extra.")).toBe(true);
    // far deeper than any stack: still an answer, not a RangeError
    expect(unstorableProblem({ ...base, extra: nested(200_000) })).toMatchObject({ message: expect.stringMatching(/nested too deeply/) });
  });

  it("rejects instants outside 0001–9999 and keeps the ts of a leap second", () => {
    expect(problemOf({ ...base, ts: "0000-01-01T00:00:00Z" })).toMatchObject({
      path: "ts",
      message: expect.stringMatching(/out of range/),
    });
    expect(checkEvent({ ...base, ts: "2016-12-31T23:59:60.5Z" })).toMatchObject({ ok: true, event: { ts: "2016-12-31T23:59:60.5Z" } });
  });
});

/** The one iterative walk: unstorableProblem before its allocation-free fast path for storable values. */
function referenceProblem(raw: unknown): TProblem | null {
  interface Frame {
    value: unknown;
    depth: number;
    parent: Frame | null;
    key: PropertyKey | null;
  }
  const pathOf = (frame: Frame, last?: PropertyKey): string => {
    const parts: PropertyKey[] = last === undefined ? [] : [last];
    for (let f: Frame | null = frame; f && f.key !== null; f = f.parent) parts.push(f.key);
    return dottedPath(parts.reverse());
  };
  const stack: Frame[] = [{ value: raw, depth: 1, parent: null, key: null }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { value, depth } = frame;
    if (typeof value === "string") {
      const problem = unstorableStringReason(value);
      if (problem) return { path: pathOf(frame), message: `string ${problem}` };
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (depth > MAX_EVENT_DEPTH) {
      return {
        path: pathOf(frame),
        message: `nested too deeply: objects and arrays may nest at most ${MAX_EVENT_DEPTH} levels in an event`,
      };
    }
    const children: Frame[] = [];
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) children.push({ value: value[i], depth: depth + 1, parent: frame, key: i });
    } else {
      for (const key of Object.keys(value)) {
        const problem = unstorableStringReason(key);
        if (problem) return { path: pathOf(frame, key), message: `property name ${problem}` };
        children.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, parent: frame, key });
      }
    }
    // Depth-first in document order: the first problem reported is the first in the text.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return null;
}

describe("unstorableProblem's fast path", () => {
  const text = fc.oneof(
    fc.string({ maxLength: 5 }),
    fc.constantFrom("ok", "a\u0000b", "\ud800", "x\udc00", "😀", "\ud83d\ude00\ud83d", "\udc00\ud800", "é"),
  );
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      text,
      fc.constantFrom(null, true, 0, 2 ** 53, undefined),
      fc.array(tie("value"), { maxLength: 3 }),
      fc.dictionary(text, tie("value"), { maxKeys: 3 }),
    ),
  }));

  it("finds the same first problem, at the same path, as the plain walk", () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(unstorableProblem(v)).toEqual(referenceProblem(v));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([MAX_EVENT_DEPTH - 2, MAX_EVENT_DEPTH - 1, MAX_EVENT_DEPTH, MAX_EVENT_DEPTH + 1, 5_000])(
    "agrees with the plain walk at nesting %d",
    (levels) => {
      for (const v of [
        { ...base, extra: nested(levels) },
        { ...base, extra: nested(levels), after: "\u0000" },
      ])
        expect(unstorableProblem(v)).toEqual(referenceProblem(v));
    },
  );
});
