/**
 * fast-check arbitraries for ingestion fuzzing, shared by the vitest property test (both
 * databases) and the e2e API fuzz spec (running servers): valid events with odd but legal content,
 * and odd events the contract must reject — each with the path its rejection must name.
 */
import fc from "fast-check";
import { checkEvent, MAX_EVENT_DEPTH, MAX_TURN } from "@/lib/contracts";
import { canonicalJson } from "@/lib/core";

export type RawEvent = Record<string, unknown>;

/** A batch entry: the raw value, and for an odd one the path its error must name (a prefix). */
export interface FuzzEntry {
  raw: RawEvent;
  /** null: valid, must be created; a string: must be rejected with an error whose path starts so. */
  rejectAt: string | null;
}

/** Any Unicode text without NUL or lone surrogates (astral characters and controls included). */
export const storableText = (maxLength = 12) => fc.string({ unit: "binary", maxLength }).map((s) => s.replace(/\u0000/g, "0"));

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** RFC 3339 date-times inside the accepted range: any year 0001–9998, offsets, fractions, leap seconds. */
export const validTs = fc
  .record({
    year: fc.oneof(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 100, max: 9998 }), fc.constant(2026)),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 0, max: 59 }) }, { weight: 1, arbitrary: fc.constant(60) }),
    fraction: fc.oneof(
      fc.constant(""),
      fc.integer({ min: 0, max: 999 }).map((n) => `.${pad(n, 3)}`),
      fc.constant(".1234567"),
    ),
    zone: fc.constantFrom("Z", "+05:30", "-08:00", "+00:00", "z"),
  })
  .map(({ year, month, day, hour, minute, second, fraction, zone }) => {
    // Years 0001 and 9998 stay in range with any offset only away from the edges.
    const y = year === 1 && zone !== "Z" && zone !== "z" ? 2 : year;
    return `${pad(y, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}${fraction}${zone}`;
  });

/** JSON values for unknown extra properties: storable strings, shallow. */
const extraValue = fc.jsonValue({ maxDepth: 3 }).map(function clean(v: unknown): unknown {
  if (typeof v === "string") return v.replace(/\u0000/g, "0").replace(/[\ud800-\udfff]/g, "x");
  if (Array.isArray(v)) return v.map(clean);
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replace(/\u0000/g, "0").replace(/[\ud800-\udfff]/g, "x"), clean(x)]));
  }
  return Object.is(v, -0) ? 0 : v;
});

const count = fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.constant(Number.MAX_SAFE_INTEGER), fc.constant(0));
const turn = fc.oneof(fc.integer({ min: 0, max: 50 }), fc.constant(MAX_TURN));

/** A body of one turn-level type, with any storable strings and integers in range. */
const turnBody = fc.oneof(
  fc.record({ type: fc.constant("meter.requests"), body: fc.record({ used: count }) }),
  fc.record({ type: fc.constant("meter.time"), body: fc.record({ elapsedMs: count }) }),
  fc.record({ type: fc.constant("block.edited"), body: fc.record({ blockId: storableText(), used: count }) }),
  fc.record({
    type: fc.constant("request.final"),
    body: fc.record({ requiredBytes: count, providerTokens: count }, { requiredKeys: ["requiredBytes"] }),
  }),
  fc.record({
    type: fc.constant("request.submitted"),
    body: fc.record(
      {
        outcome: fc.constantFrom("ok", "failed", "uncertain"),
        reminders: fc.array(
          fc.record({
            key: fc.constantFrom("requests", "edits", "review"),
            subject: fc.option(storableText(), { nil: null }),
            stage: count,
          }),
          { maxLength: 3 },
        ),
      },
      { requiredKeys: ["outcome"] },
    ),
  }),
  fc.record({ type: fc.constant("user.notified"), body: fc.record({ channel: storableText(), message: storableText(40) }) }),
  fc.record({
    type: fc.constant("reviewer.admission"),
    body: fc.record({ candidateId: storableText(), granted: fc.boolean(), reasons: fc.array(storableText(), { maxLength: 3 }) }),
  }),
);

/**
 * A valid event of run `runId` with id `${idPrefix}${n}…`: any turn-level type, an odd but legal
 * id suffix, ts anywhere in range, sometimes unknown extra properties.
 */
export function validEvent(runId: string, id: string): fc.Arbitrary<RawEvent> {
  return fc
    .record({ typed: turnBody, ts: validTs, turn, suffix: storableText(8), extra: fc.option(extraValue, { nil: undefined }) })
    .map(({ typed, ts, turn, suffix, extra }) => ({
      id: `${id}${suffix}`.slice(0, 128),
      runId,
      type: typed.type,
      ts,
      turn,
      body: typed.body,
      ...(extra === undefined ? {} : { extra }),
    }));
}

function nested(levels: number): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < levels; i++) value = i % 2 ? { deeper: value } : [value];
  return value;
}

const LONE = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));

/** Makes a valid event odd in one way the contract must reject; the path the error must name. */
export function oddEvent(valid: fc.Arbitrary<RawEvent>): fc.Arbitrary<FuzzEntry> {
  const breakers: fc.Arbitrary<(e: RawEvent) => FuzzEntry>[] = [
    fc.constant((e: RawEvent) => ({ raw: { ...e, id: `${e.id}\u0000` }, rejectAt: "id" })),
    LONE.map((s) => (e: RawEvent) => ({ raw: { ...e, runId: `${e.runId}${s}` }, rejectAt: "runId" })),
    LONE.map((s) => (e: RawEvent) => ({
      raw: { ...e, type: "user.notified", body: { channel: "c", message: `m${s}` } },
      rejectAt: "body.message",
    })),
    fc.constant((e: RawEvent) => ({
      raw: { ...e, type: "user.notified", body: { channel: "a\u0000b", message: "m" } },
      rejectAt: "body.channel",
    })),
    fc.constant((e: RawEvent) => ({ raw: { ...e, unknownExtra: ["fine", "bad\u0000"] }, rejectAt: "unknownExtra.1" })),
    fc.constantFrom(2 ** 31, 2 ** 40, 2 ** 53, 1e300).map((n) => (e: RawEvent) => ({ raw: { ...e, turn: n }, rejectAt: "turn" })),
    fc
      .constantFrom(2 ** 53, 2 ** 64, 1e300)
      .map((n) => (e: RawEvent) => ({ raw: { ...e, type: "meter.requests", body: { used: n } }, rejectAt: "body.used" })),
    fc
      .constantFrom(
        "0000-01-01T00:00:00Z",
        "0000-12-31T23:59:59.999Z",
        "0001-01-01T00:00:00+00:01",
        "9999-12-31T23:59:59.999-00:01",
        "9999-12-31T23:59:60-01:00",
        "2026-02-30T00:00:00Z",
        "2026-11-29T10:00:61Z",
      )
      .map((ts) => (e: RawEvent) => ({ raw: { ...e, ts }, rejectAt: "ts" })),
    fc
      .integer({ min: MAX_EVENT_DEPTH, max: MAX_EVENT_DEPTH + 2000 })
      .map((levels) => (e: RawEvent) => ({ raw: { ...e, deep: nested(levels) }, rejectAt: "deep" })),
    fc.constant((e: RawEvent) => ({ raw: { ...e, ["key\u0000"]: 1 }, rejectAt: "key" })),
  ];
  return fc.tuple(valid, fc.oneof(...breakers)).map(([e, breakIt]) => breakIt(e));
}

/** Template text without placeholders (any other text, braces included, is literal). */
const templateText = storableText(30).map((t) => t.replace(/\{([A-Za-z]+)\}/g, "($1)"));

/** Stage thresholds: strictly ascending doubles > 0, from the smallest subnormal to 1e300. */
const stages = fc
  .uniqueArray(
    fc.oneof(
      fc.double({ min: Number.MIN_VALUE, max: 1e300, noNaN: true }),
      fc.constantFrom(0.5, 0.75, 0.9, 1, Number.MIN_VALUE, 1.7976931348623157e308),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((values) => [...values].sort((a, b) => a - b));

/** A valid run.started with odd but legal policy numbers and copy text. */
export function validStart(runId: string, id: string): fc.Arbitrary<RawEvent> {
  return fc
    .record({
      ts: validTs,
      task: storableText(40),
      agent: storableText(),
      limit: count,
      limitMs: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
      requestStages: stages,
      timeStages: stages,
      copyText: templateText,
      stageText: templateText,
    })
    .map(({ ts, task, agent, limit, limitMs, requestStages, timeStages, copyText, stageText }) => ({
      id,
      runId,
      type: "run.started",
      ts,
      turn: 2 ** 40, // allowed and ignored on run.started
      body: {
        task,
        agent,
        policy: { requests: { limit, stages: requestStages }, time: { limitMs, stages: timeStages }, review: { everyTurns: 3 } },
        copy: { requests: { "*": copyText, "2": stageText }, edits: { "*": copyText, exhausted: stageText } },
      },
    }));
}

/**
 * A batch for one run: `run.started` maybe, valid events, odd ones mixed in, in any order.
 * Ids are `${idPrefix}${i}-…`, unique within the batch.
 */
export function mixedBatch(runId: string, idPrefix: string): fc.Arbitrary<FuzzEntry[]> {
  return fc
    .array(fc.boolean(), { minLength: 1, maxLength: 12 })
    .chain((kinds) =>
      fc.tuple(
        ...kinds.map((odd, i) => {
          const valid = validEvent(runId, `${idPrefix}${i}-`);
          return odd ? oddEvent(valid) : valid.map((raw): FuzzEntry => ({ raw, rejectAt: null }));
        }),
      ),
    )
    .chain((entries) =>
      fc
        .option(validStart(runId, `${idPrefix}start`), { nil: undefined })
        .map((start) => (start === undefined ? entries : [{ raw: start, rejectAt: null }, ...entries])),
    );
}

/**
 * What a batch's answer got wrong, for people (empty when right): every valid entry created, every
 * odd one an error whose path starts where its oddity is, with a reason.
 */
export function answerMismatches(
  entries: readonly FuzzEntry[],
  results: readonly { status: string; error?: { path: string; message: string } }[],
): string[] {
  const problems: string[] = [];
  entries.forEach((entry, i) => {
    const result = results[i];
    if (entry.rejectAt === null) {
      if (result?.status !== "created") problems.push(`entry ${i}: expected created, got ${JSON.stringify(result)}`);
    } else if (result?.status !== "error" || !result.error?.path.startsWith(entry.rejectAt) || !result.error.message) {
      problems.push(`entry ${i}: expected an error at ${entry.rejectAt}, got ${JSON.stringify(result)}`);
    }
  });
  return problems;
}

/** The valid entries as they must be stored (and read back): canonical JSON of the accepted event by id. */
export function expectedStored(entries: readonly FuzzEntry[]): Map<string, string> {
  const expected = new Map<string, string>();
  for (const entry of entries) {
    const checked = checkEvent(entry.raw);
    if (entry.rejectAt === null && checked.ok) expected.set(checked.event.id, canonicalJson(checked.event));
  }
  return expected;
}
