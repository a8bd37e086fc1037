import { expect, test, type APIRequestContext } from "@playwright/test";
import fc from "fast-check";
import { endedEvent, startedEvent, turnEvents } from "@/lib/server/testing/events";
import { apiTarget } from "@/e2e/support/targets";

/**
 * Property-based fuzzing of every GET route's query and path parameters against the running
 * servers (PGlite and PostgreSQL): whatever the values, the answer is never a 5xx, its body is
 * JSON (a CSV export aside), a 400 names the parameter, and an unknown id is a 404.
 *
 * Runs per property are kept small (a few hundred requests per server in all) so CI stays fast;
 * raise FUZZ_RUNS locally for a longer hunt. A failure prints fast-check's seed and the shrunk URL.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * RUNS));

const RUN_ID = "fuzz run/with %, ü and ?";
const PRINTABLE_ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));

// ---------------------------------------------------------------------------------------------
// Values

/** Text that has broken parsers before: wildcards, escapes, NUL, numbers that are not quite. */
const nasty = fc.constantFrom(
  "",
  " ",
  "%",
  "%%",
  "_",
  "\\",
  "\\%",
  "'",
  '"',
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "\u200b",
  "🚀",
  "运行",
  "NaN",
  "Infinity",
  "-Infinity",
  "-1",
  "-0",
  "0",
  "1",
  "01",
  "1.5",
  "1e3",
  "1e309",
  "0x10",
  "0b1",
  " 1",
  "1 ",
  "+1",
  "2147483647",
  "2147483648",
  "9007199254740993",
  "99999999999999999999999",
  "-99999999999",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "x".repeat(129),
  "x".repeat(5000),
  "%00",
  "%ZZ",
  "..",
  ".",
  "~",
);

const text = fc.oneof(
  { weight: 3, arbitrary: nasty },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...PRINTABLE_ASCII), maxLength: 30 }) },
);

const integerText = fc.oneof(
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.double().map(String),
  fc.nat({ max: 400 }).map(String),
  nasty,
);

/** encodeURIComponent for any string (a lone surrogate, which it refuses, is sent as U+FFFD). */
const encode = (value: string) => encodeURIComponent(value.replace(/\p{Surrogate}/gu, "\uFFFD"));

const pad = (n: number, width: number) => String(Math.abs(n)).padStart(width, "0");

/** Date-times as people and programs write them, valid or nearly: years 0000–0099, 9999, 275760+. */
const dateText = fc.oneof(
  fc
    .record({
      year: fc.oneof(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 9999 }), fc.constantFrom(1900, 1970, 2026, 9999)),
      month: fc.integer({ min: 0, max: 13 }),
      day: fc.integer({ min: 0, max: 32 }),
      hour: fc.integer({ min: 0, max: 25 }),
      minute: fc.integer({ min: 0, max: 60 }),
      second: fc.integer({ min: 0, max: 61 }),
      fraction: fc.constantFrom("", ".5", ".123", ".123456789", ".1234567890123"),
      zone: fc.constantFrom("Z", "z", "+00:00", "-00:00", "+14:00", "-12:00", "+23:59", "+24:00", "", "+0100", "UTC"),
      separator: fc.constantFrom("T", "t", " "),
    })
    .map(
      (d) =>
        `${pad(d.year, 4)}-${pad(d.month, 2)}-${pad(d.day, 2)}${d.separator}${pad(d.hour, 2)}:${pad(d.minute, 2)}:${pad(d.second, 2)}${d.fraction}${d.zone}`,
    ),
  fc.constantFrom(
    "+275760-09-13T00:00:00.000Z",
    "275760-09-13T00:00:00Z",
    "+275761-01-01T00:00:00Z",
    "-000001-01-01T00:00:00Z",
    "0000-01-01T00:00:00Z",
    "0001-01-01T00:00:00Z",
    "0099-12-31T23:59:59.999Z",
    "9999-12-31T23:59:59.999Z",
    "9999-12-31T23:59:59.999-14:00",
    "2026-02-29T00:00:00Z",
    "2024-02-29T00:00:00Z",
    "2026-11-29",
    "2026-11-29T10:00Z",
  ),
  text,
);

/** Cursors: garbage, base64 of arbitrary JSON, and of JSON shaped like the real ones. */
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value) ?? "").toString("base64url");
const cursorText = fc.oneof(
  text,
  fc.jsonValue().map(b64),
  fc
    .record({ v: fc.oneof(fc.constant(null), fc.integer(), fc.double(), dateText, fc.jsonValue()), id: fc.oneof(text, fc.jsonValue()) })
    .map(b64),
  fc.record({ run: fc.oneof(text, fc.jsonValue()), skip: fc.oneof(fc.integer(), fc.double(), fc.jsonValue()) }).map(b64),
  fc
    .record({
      s: fc.oneof(
        fc.constant(null),
        dateText,
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        fc.jsonValue(),
      ),
      r: fc.oneof(text, fc.jsonValue()),
      n: fc.oneof(fc.integer(), fc.double(), fc.jsonValue()),
    })
    .map(b64),
  fc.bigInt({ min: 0n, max: 10n ** 25n }).map(String),
);

/** One query parameter's value(s): usually one, sometimes repeated (the last one counts). */
const values = (value: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 4, arbitrary: value.map((v) => [v]) }, { weight: 1, arbitrary: fc.array(value, { minLength: 2, maxLength: 3 }) });

type QuerySpec = Record<string, fc.Arbitrary<string>>;

/** Some of a route's parameters (and an unknown one now and then), with values from their generators. */
function query(spec: QuerySpec): fc.Arbitrary<[string, string][]> {
  const withUnknown: QuerySpec = { ...spec, [`x${"_unknown"}`]: text };
  return fc
    .record(Object.fromEntries(Object.entries(withUnknown).map(([name, value]) => [name, values(value)])), { requiredKeys: [] })
    .map((chosen) => Object.entries(chosen).flatMap(([name, list]) => (list as string[]).map((v) => [name, v] as [string, string])));
}

/**
 * A path segment: an id that exists, arbitrary text encoded as a client should, every printable
 * ASCII character encoded, or raw text a careless client sends (bad percent-encoding included).
 */
function segment(known: string[]): fc.Arbitrary<string> {
  return fc
    .oneof(
      { weight: 2, arbitrary: fc.constantFrom(...known).map(encodeURIComponent) },
      { weight: 3, arbitrary: text.filter((t) => t.length > 0).map(encode) },
      {
        weight: 2,
        arbitrary: fc.string({ unit: fc.constantFrom(...PRINTABLE_ASCII), minLength: 1, maxLength: 12 }).map(encodeURIComponent),
      },
      { weight: 1, arbitrary: fc.constantFrom("%", "%ZZ", "a%E0%A4%A", "%ED%A0%80", "%C0%AF", "%00", "%2F", "%252F", "~", "x%20y") },
    )
    .filter((s) => !isDotSegment(s));
}

/**
 * `.` and `..` (also written `%2e`) are resolved away by every URL parser before the request is
 * sent: such a "segment" never reaches the route under test, it names another route (GET
 * /api/v1/replay/. is GET /api/v1/replay, the list of recent replays). Run ids that are dots travel as
 * `~?runId=` and have their own test.
 */
function isDotSegment(segment: string): boolean {
  return /^(?:\.|%2e){1,2}$/i.test(segment);
}

// ---------------------------------------------------------------------------------------------
// Checks

const RUN_LIST: QuerySpec = {
  status: fc.oneof(fc.constantFrom("live", "completed", "failed", "stopped"), text),
  agent: text,
  model: text,
  q: text,
  from: dateText,
  to: dateText,
  sort: fc.oneof(fc.constantFrom("-started", "started", "-turns", "turns"), text),
  cursor: cursorText,
  limit: integerText,
};
const REVIEWER: QuerySpec = {
  agent: text,
  model: text,
  runId: fc.oneof(fc.constant(RUN_ID), text),
  from: dateText,
  to: dateText,
  violations: fc.oneof(fc.constantFrom("1", "0", "true", "false"), text),
  cursor: cursorText,
  limit: integerText,
};

interface Sent {
  url: string;
  /** The parameter names a 400 may blame: the query's and the path's. */
  names: string[];
}

async function check(request: APIRequestContext, key: string, sent: Sent, expectations: { allowCsv?: boolean } = {}): Promise<void> {
  const response = await request.get(sent.url, { headers: { authorization: `Bearer ${key}` }, maxRedirects: 3 });
  const status = response.status();
  const label = `GET ${sent.url} → ${status}`;
  expect(status, label).toBeLessThan(500);
  expect([200, 400, 404, 409], label).toContain(status);
  const type = response.headers()["content-type"] ?? "";
  const body = await response.text();
  if (status === 200 && expectations.allowCsv && type.startsWith("text/csv")) return;
  expect(type, label).toMatch(/^application\/json/);
  const parsed = JSON.parse(body) as { error?: { code: string; message: string; path?: string } };
  if (status === 400) {
    expect(parsed.error?.code, `${label} ${body}`).toBe("invalid");
    expect(parsed.error?.message, label).toMatch(/\S/);
    expect([...sent.names, "path"], `${label}: ${body}`).toContain(parsed.error?.path);
  }
  if (status === 404) expect(parsed.error?.code, `${label} ${body}`).toBe("not_found");
}

/** A GET of `path` with `params`; a 400 may blame a query parameter or one of `pathNames`. */
function url(path: string, params: [string, string][] = [], pathNames: string[] = []): Sent {
  const search = new URLSearchParams(params);
  const text = search.toString();
  return { url: text ? `${path}?${text}` : path, names: [...new Set([...pathNames, ...params.map(([name]) => name)])] };
}

// ---------------------------------------------------------------------------------------------

test.describe.configure({ mode: "serial" });

let policyVersionId: string | null = null;
let replayJobId: string | null = null;

test.beforeAll(async ({ request }, info) => {
  const { key } = apiTarget(info);
  const headers = { authorization: `Bearer ${key}` };
  const events = [startedEvent(RUN_ID, "fuzz-start", { task: "Fuzz target run" })];
  for (let t = 0; t < 6; t++) events.push(...turnEvents(RUN_ID, t, 2 + t * 3, 4000 + t * 500).map((e) => ({ ...e, id: `fuzz-${e.id}` })));
  events.push({ ...endedEvent(RUN_ID), id: "fuzz-end" });
  const ingest = await request.post("/api/v1/ingest", { headers, data: { batch: events } });
  expect(ingest.status()).toBe(207);
  expect((await ingest.json()).summary.error).toBe(0);

  const policy = await request.post("/api/v1/policy-versions", {
    headers,
    data: { name: "fuzz", policy: { requests: { limit: 30, stages: [0.5, 0.9] } } },
  });
  if (policy.status() === 201) policyVersionId = (await policy.json()).id;
  if (policyVersionId) {
    const replay = await request.post("/api/v1/replay", { headers, data: { policyVersionId, filters: { q: "Fuzz target" }, maxRuns: 1 } });
    if (replay.status() < 300) replayJobId = (await replay.json()).id;
  }
});

/** One property: requests drawn from `requests`, `numRuns` of them (scaled by FUZZ_RUNS). */
interface FuzzCase {
  requests: fc.Arbitrary<Sent>;
  numRuns: number;
  allowCsv?: boolean;
}

/** A test of the fuzz table: its properties, built once beforeAll has made the ids they use. */
interface FuzzTest {
  title: string;
  timeoutMs: number;
  cases: () => FuzzCase[];
}

const FUZZ_TESTS: FuzzTest[] = [
  {
    title: "the runs list and facets never answer 5xx, whatever the query",
    timeoutMs: 240_000,
    cases: () => [
      { requests: query(RUN_LIST).map((q) => url("/api/v1/runs", q)), numRuns: 250 },
      { requests: query({ status: text }).map((q) => url("/api/v1/facets", q)), numRuns: 10 },
    ],
  },
  {
    title: "a run's routes never answer 5xx, whatever the run id, turn and query",
    timeoutMs: 240_000,
    cases: () => {
      const runSegment = segment([RUN_ID, RUN_ID, "etf-sector-weights", "no such run"]);
      const turnSegment = fc.oneof(integerText.map(encode), segment(["0", "3", "5", "6"]));
      return [
        {
          requests: fc.oneof(
            runSegment.map((id) => url(`/api/v1/runs/${id}`, [], ["runId"])),
            runSegment.map((id) => url(`/api/v1/runs/${id}/decisions`, [], ["runId"])),
            fc
              .tuple(runSegment, query({ turn: integerText, cursor: cursorText, limit: integerText }))
              .map(([id, q]) => url(`/api/v1/runs/${id}/events`, q, ["runId"])),
            fc
              .tuple(runSegment, query({ from: integerText, to: integerText, maxPoints: integerText }))
              .map(([id, q]) => url(`/api/v1/runs/${id}/timeline`, q, ["runId"])),
            fc.tuple(runSegment, turnSegment).map(([id, turn]) => url(`/api/v1/runs/${id}/turns/${turn}`, [], ["runId", "turn"])),
          ),
          numRuns: 250,
        },
      ];
    },
  },
  {
    title: "the Reviewer candidates, funnel and export never answer 5xx, whatever the filters",
    timeoutMs: 300_000,
    cases: () => [
      { requests: query(REVIEWER).map((q) => url("/api/v1/reviewer/candidates", q)), numRuns: 120 },
      { requests: query(REVIEWER).map((q) => url("/api/v1/reviewer/funnel", q)), numRuns: 40 },
      {
        requests: query({ ...REVIEWER, format: fc.oneof(fc.constantFrom("csv", "json"), text) }).map((q) =>
          url("/api/v1/reviewer/candidates/export", q),
        ),
        numRuns: 30,
        allowCsv: true,
      },
    ],
  },
  {
    title: "versions and replays never answer 5xx, whatever the id, run id and turn",
    timeoutMs: 240_000,
    cases: () => {
      const versionIds = segment([policyVersionId ?? "no-such-version", "no-such-version"]);
      const jobIds = segment([replayJobId ?? "no-such-job", "no-such-job"]);
      const runSegment = segment([RUN_ID, "no such run"]);
      const turn = fc.oneof(integerText.map(encode), fc.constantFrom("0", "2", "5"));
      return [
        {
          requests: fc.oneof(
            query({ kind: text }).map((q) => url("/api/v1/copy-versions", q)),
            query({ kind: text }).map((q) => url("/api/v1/policy-versions", q)),
            versionIds.map((id) => url(`/api/v1/copy-versions/${id}`, [], ["id"])),
            versionIds.map((id) => url(`/api/v1/policy-versions/${id}`, [], ["id"])),
            jobIds.map((id) => url(`/api/v1/replay/${id}`, [], ["id"])),
            query({ kind: text }).map((q) => url("/api/v1/replay", q)),
            query({ status: RUN_LIST.status, agent: text, model: text, q: text, from: dateText, to: dateText, maxRuns: integerText }).map(
              (q) => url("/api/v1/replay/matching", q),
            ),
            fc
              .tuple(jobIds, runSegment, turn)
              .map(([id, runId, t]) => url(`/api/v1/replay/${id}/runs/${runId}/turns/${t}`, [], ["id", "runId", "turn"])),
          ),
          numRuns: 150,
        },
      ];
    },
  },
];

for (const { title, timeoutMs, cases } of FUZZ_TESTS) {
  test(title, async ({ request }, info) => {
    test.setTimeout(timeoutMs);
    const { key } = apiTarget(info);
    for (const { requests, numRuns, allowCsv } of cases()) {
      await fc.assert(
        fc.asyncProperty(requests, (sent) => check(request, key, sent, { allowCsv })),
        { numRuns: runs(numRuns) },
      );
    }
  });
}

test("unknown ids are 404, bad ones 400 naming the parameter, and early-year dates stay early", async ({ request }, info) => {
  const { key } = apiTarget(info);
  const headers = { authorization: `Bearer ${key}` };
  const get = async (path: string) => {
    const response = await request.get(path, { headers });
    return { status: response.status(), body: await response.json() };
  };
  for (const path of [
    "/api/v1/runs/no%20such%20run",
    "/api/v1/runs/no-such/turns/3",
    "/api/v1/copy-versions/nope",
    "/api/v1/policy-versions/nope",
    "/api/v1/replay/nope",
    "/api/v1/replay/nope/runs/x/turns/1",
    "/api/v1/no-such-route",
  ]) {
    const { status, body } = await get(path);
    expect(status, path).toBe(404);
    expect(body.error.code).toBe("not_found");
  }
  const bad: [string, string, RegExp][] = [
    ["/api/v1/runs?from=0000-06-01T00:00:00Z", "from", /^query\.from: expected a date-time from 0001/],
    ["/api/v1/runs?to=%2B275760-09-13T00:00:00Z", "to", /^query\.to: expected an RFC 3339 date-time with a zone/],
    ["/api/v1/runs?limit=1e3", "limit", /^query\.limit: expected an integer from 1 to 200, got "1e3"/],
    [`/api/v1/runs/${encodeURIComponent(RUN_ID)}/events?turn=2147483648`, "turn", /^query\.turn: expected an integer/],
    [`/api/v1/runs/${encodeURIComponent(RUN_ID)}/turns/-1`, "turn", /^path\.turn: expected an integer/],
    ["/api/v1/runs/%00", "runId", /^path\.runId: expected a run id/],
    ["/api/v1/runs/a%ZZ", "path", /not valid percent-encoding/],
    ["/api/v1/reviewer/candidates?runId=%00", "runId", /^query\.runId: /],
  ];
  for (const [path, name, message] of bad) {
    const { status, body } = await get(path);
    expect(status, path).toBe(400);
    expect(body.error.path, path).toBe(name);
    expect(body.error.message, path).toMatch(message);
  }
  const run = await get(`/api/v1/runs/${encodeURIComponent(RUN_ID)}`);
  expect(run.body.runId).toBe(RUN_ID);
  // The fuzz run started in 2026: a filter on year 26 must not find it as 1926 or 2026.
  const early = await get(`/api/v1/runs?q=${encodeURIComponent("Fuzz target")}&from=0026-01-01T00:00:00Z&to=0027-01-01T00:00:00Z`);
  expect(early.status).toBe(200);
  expect(early.body.runs).toEqual([]);
  const recent = await get(`/api/v1/runs?q=${encodeURIComponent("Fuzz target")}&from=2026-01-01T00:00:00Z`);
  expect(recent.body.runs.map((r: { runId: string }) => r.runId)).toEqual([RUN_ID]);
});
