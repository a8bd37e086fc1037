/**
 * The fast paths give exactly what the plain versions give: percentOf without BigInt, compiled
 * templates, fitting straight into decisions, run order without sorting, and canonical JSON written
 * natively where keys are in order already. Each plain
 * version lives here, in the test, so that the code under test is the only implementation.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical";
import { PLACEHOLDER_PATTERN, type TDeliveryStatus, type TEvent } from "@/lib/contracts";
import { fitDecisions, type Rendered } from "./fit";
import { CompiledTemplate, fillTemplate } from "./render";
import { inRunOrder, runOrder } from "./run-order";
import { percentOf } from "./stages";

/** floor(100 n / d) with BigInt only: percentOf before its fast path. */
function referencePercent(numerator: number, denominator: number): number {
  if (denominator <= 0) return 100;
  const n = 100n * BigInt(numerator);
  const d = BigInt(denominator);
  const q = n / d;
  return Number(n < 0n && n % d !== 0n ? q - 1n : q);
}

describe("percentOf fast path", () => {
  const LIMIT = 2 ** 52;
  it.each([
    [0, 1],
    [1, 3],
    [2, 3],
    [35, 36],
    [36, 36],
    [43, 36],
    [-1, 3],
    [-3, 3],
    [-0, 7],
    [1, 2 ** 52],
    [Math.floor(2 ** 52 / 100) - 1, 3],
    [Math.floor(LIMIT / 100), 2 ** 52 - 1],
    [Math.floor(LIMIT / 100) + 1, 7], // 100 n just past 2^52: BigInt path
    [Number.MAX_SAFE_INTEGER, 3],
    [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    [Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER],
    [-Number.MAX_SAFE_INTEGER, 9_007_199],
    [45_035_996_273_704, 45_035_996_273_705],
    [45_035_996_273_703, 4_503_599_627_370_497],
    [5, 0],
    [5, -2],
  ])("percentOf(%d, %d) equals the BigInt result", (n, d) => {
    expect(Object.is(percentOf(n, d), referencePercent(n, d))).toBe(true);
  });

  it("agrees with BigInt on many large and near-boundary values", () => {
    let seed = 99;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let k = 0; k < 20_000; k++) {
      const d = Math.max(1, Math.floor(next() ** 4 * 2 ** 53));
      const n = Math.floor((next() * 2 - 0.5) * (next() < 0.5 ? d : 2 ** 45));
      expect(percentOf(n, d), `${n} / ${d}`).toBe(referencePercent(n, d));
    }
  });
});

/** Placeholder filling as one regex pass with a callback: CompiledTemplate before its fast path. */
function referenceFill(template: string, values: Readonly<Record<string, number | string>>): string {
  return template.replace(PLACEHOLDER_PATTERN, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) return whole;
    return typeof value === "number" ? (Number.isSafeInteger(value) ? String(value) : BigInt(Math.trunc(value)).toString()) : value;
  });
}

describe("compiled templates", () => {
  const values = { used: 3, limit: 4, blockId: "b{1}😀", percent: -38, big: 2 ** 60, remaining: 0 };
  it.each([
    "",
    "plain text",
    "{used}/{limit}",
    "{{used}}",
    "{ used }",
    "{used2} {}",
    "{unknown} stays",
    "{constructor} {toString} {valueOf}", // inherited names render as the regex pass renders them
    "Block {blockId}: {used} of {limit} ({percent}%) {big}",
    "\ud800{blockId}\udc00",
    "{used}{used}{remaining}",
  ])("%j renders as the regex pass renders it", (template) => {
    const compiled = new CompiledTemplate(template);
    expect(compiled.render(values)).toBe(referenceFill(template, values));
    expect(compiled.render({})).toBe(referenceFill(template, {})); // rendered again, with other values
    expect(fillTemplate(template, values)).toBe(referenceFill(template, values));
  });
});

/** First fit (R8) as plain steps: include or drop each reminder, then give the included ones their status. */
function referenceFit(rendered: readonly Rendered[], freeBytes: number, status: TDeliveryStatus) {
  let free = freeBytes;
  const fitted = rendered.map((reminder): Rendered & { included: boolean; freeBytes?: number } => {
    if (reminder.bytes <= free) {
      free -= reminder.bytes;
      return { ...reminder, included: true };
    }
    return { ...reminder, included: false, freeBytes: free };
  });
  const reminders = fitted.map(({ included, freeBytes, ...r }) =>
    included ? { ...r, status } : { ...r, status: "dropped", dropReason: "capacity", freeBytes },
  );
  return { reminders, freeAfter: free };
}

describe("fitting straight into decisions", () => {
  const rendered: Rendered[] = [
    { key: "requests", subject: null, kind: "notice", stage: 2, text: "R2", bytes: 3 },
    { key: "context", subject: null, kind: "notice", stage: 3, text: "C3 long", bytes: 8 },
    { key: "edits", subject: "b1", kind: "state", stage: 1, text: "E1", bytes: 3 },
    { key: "review", subject: null, kind: "suggestion", stage: 1, text: "Rv", bytes: 3 },
  ];
  it.each([
    [Infinity, "delivered"],
    [8, "uncertain"],
    [6, "failed"],
    [0, "pending"],
    [-5, "delivered"],
  ] as [number, TDeliveryStatus][])("free %d, status %s: the same decisions and JSON as a plain first fit", (free, status) => {
    const expected = referenceFit(rendered, free, status);
    const actual = fitDecisions(rendered, free, status);
    expect(JSON.stringify(actual.reminders)).toBe(JSON.stringify(expected.reminders));
    expect(actual.freeAfter).toBe(expected.freeAfter);
  });
});

describe("run order fast path", () => {
  const event = (id: string, turn: number, ts: string): TEvent =>
    ({ id, runId: "r", type: "meter.time", ts, turn, body: { elapsedMs: 0 } }) as TEvent;
  const sorted = [
    event("a", 0, "2026-11-29T10:00:00.000Z"),
    event("b", 0, "2026-11-29T10:00:00.000Z"),
    event("c", 0, "2026-11-29T10:00:00.0001Z"),
    event("d", 1, "2026-11-29T09:00:00.000Z"),
    event("e", 1, "2026-11-29T10:00:00.000+01:00"),
  ];

  it("returns an input already in run order as it is (inRunOrder copies it)", () => {
    expect(runOrder(sorted)).toBe(sorted);
    expect(inRunOrder(sorted)).not.toBe(sorted);
    expect(inRunOrder(sorted)).toEqual(sorted);
  });

  it("sorts when one pair is out of order, with ids not ascending, and with repeats", () => {
    const swapped = [sorted[0], sorted[2], sorted[1], sorted[3], sorted[4]];
    expect(runOrder(swapped)).toEqual(sorted);
    const renamed = sorted.map((e, i) => ({ ...e, id: `${9 - i}` }));
    // Same turn and instant: the id decides ("8" before "9"; "5" before "6", 10:00+01:00 being 09:00Z).
    expect(runOrder(renamed)).toEqual([renamed[1], renamed[0], renamed[2], renamed[4], renamed[3]]);
    expect(runOrder([...sorted, sorted[1], { ...sorted[3] }])).toEqual(sorted);
  });
});

/** Canonical JSON key by key everywhere: canonicalJson before its fast path (a dense array's items as map gives them). */
function referenceCanonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? "null" : referenceCanonical(item))).join(",")}]`;
  const entries = Object.keys(value)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${referenceCanonical((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(",")}}`;
}

describe("canonical JSON fast path", () => {
  const keys = fc.oneof(
    fc.constantFrom(
      "a",
      "b",
      "B",
      "id",
      "runId",
      "type",
      "ts",
      "body",
      "é",
      "\u{1F600}",
      "\ud83d",
      "",
      "0",
      "1",
      "2",
      "10",
      "01",
      "-1",
      "__proto__",
      "toJSON",
    ),
    fc.string({ maxLength: 4 }),
  );
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom(null, true, false, 0, -0, 1.5, -7, 1e21, 2 ** 53 - 1, NaN, Infinity, undefined, "", "x", '"\\\n', "\ud800", "😀"),
      fc.string({ maxLength: 6 }),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(keys, tie("value"), { maxKeys: 5 }),
      // Keys already in order (the native path) and the same keys in reverse.
      fc.uniqueArray(keys, { maxLength: 5 }).chain((names) =>
        fc.tuple(...names.sort().map(() => tie("value"))).map((values) => {
          const ordered = Object.fromEntries(names.map((name, i) => [name, values[i]]));
          return values.length % 2 ? ordered : Object.fromEntries(Object.entries(ordered).reverse());
        }),
      ),
    ),
  }));

  it("writes every JSON-like value as the key-by-key version does", () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalJson(v)).toBe(referenceCanonical(v));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ["keys in order, nested", { a: 1, b: { c: [1, { d: 2, e: null }] } }],
    ["integer-like keys (which objects list first)", { "10": 1, "2": 2, a: 3 }],
    ["a __proto__ key from JSON text", JSON.parse('{"__proto__": {"b": 1, "a": 2}, "z": 0}')],
    ["undefined values", { a: undefined, b: [undefined, 1] }],
    ["functions and symbols (written as null)", { a: () => 1, b: Symbol("s"), c: [() => 1] }],
    ["a function among keys in order", { a: () => 1, b: 1 }],
    ["a toJSON data property", { toJSON: "x", a: 1 }],
    ["a Date (an object without keys)", { at: new Date(0) }],
    ["a null-prototype object", Object.assign(Object.create(null) as object, { b: 1, a: 2 })],
    ["boxed values", { s: Object("ab") as unknown, n: Object(1) as unknown }],
  ])("%s", (_, v) => {
    expect(canonicalJson(v)).toBe(referenceCanonical(v));
  });
});
