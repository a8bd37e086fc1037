import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "@/lib/server/auth/keys";
import { useDatabase, type Database } from "@/lib/server/db";
import { otlpLogsRoute } from "@/lib/server/http/otlp-routes";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { getDecisions, getRunSummary } from "@/lib/server/runs/run-reads";
import { testDatabases } from "@/lib/server/testing/databases";

/**
 * The Python OpenTelemetry recipe of docs/contract/otlp.md ("From Python with OpenTelemetry") and its
 * fixture, docs/examples/otel-python-logs.json: a small run as the recipe's code exports it, in
 * OTLP/JSON. The fixture is posted to the real logs route on a real database, as OTLP/JSON and as the
 * protobuf the Python exporter sends; the events and the rebuilt decisions are checked against what the
 * fixture and the contract say. The recipe's code itself is run (by /usr/bin/python3, its
 * OpenTelemetry packages stood in for, as they cannot be installed here) to check that it makes the
 * fixture's records.
 */

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const FIXTURE = join(ROOT, "docs/examples/otel-python-logs.json");
const DOC = join(ROOT, "docs/contract/otlp.md");
const PYTHON = "/usr/bin/python3";

interface AnyValue {
  stringValue?: string;
  intValue?: string;
  boolValue?: boolean;
  doubleValue?: number;
}
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface LogRecordJson {
  timeUnixNano: string;
  observedTimeUnixNano: string;
  body: AnyValue;
  attributes: KeyValue[];
  eventName: string;
}
interface LogsRequestJson {
  resourceLogs: {
    resource: { attributes: KeyValue[] };
    scopeLogs: { scope: { name: string; version?: string }; logRecords: LogRecordJson[] }[];
  }[];
}

const fixtureText = readFileSync(FIXTURE, "utf8");
const fixture = JSON.parse(fixtureText) as LogsRequestJson;
const records = fixture.resourceLogs.flatMap((rl) => rl.scopeLogs.flatMap((sl) => sl.logRecords));
const attribute = (record: LogRecordJson, key: string) => record.attributes.find((a) => a.key === key)?.value;

/** The telemetry v1 event each log record is, read off the fixture by the contract's mapping table. */
const expectedEvents = records.map((record) => {
  const turn = attribute(record, "cuescope.turn");
  const ns = BigInt(record.timeUnixNano);
  return {
    id: attribute(record, "cuescope.id")!.stringValue!,
    runId: attribute(record, "cuescope.run_id")!.stringValue!,
    type: attribute(record, "cuescope.type")!.stringValue!,
    // timeUnixNano as an RFC 3339 instant in UTC, truncated to milliseconds.
    ts: new Date(Number(ns / 1_000_000n)).toISOString(),
    turn: turn === undefined ? null : Number(turn.intValue),
    body: JSON.parse(attribute(record, "cuescope.body")!.stringValue!) as Record<string, unknown>,
  };
});
const RUN_ID = expectedEvents[0].runId;
/** The events as stored: the contract's defaults filled in (request.submitted's countsAgainstBudget, default true). */
const storedEvents = expectedEvents.map((e) =>
  e.type === "request.submitted" && !("countsAgainstBudget" in e.body) ? { ...e, body: { ...e.body, countsAgainstBudget: true } } : e,
);

// --- the Python exporter's protobuf, from the OTLP/JSON (field numbers of opentelemetry/proto) ------

const varint = (n: bigint): number[] => {
  const out: number[] = [];
  let v = BigInt.asUintN(64, n);
  do {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v ? byte | 0x80 : byte);
  } while (v);
  return out;
};
const len = (field: number, bytes: number[]) => [...varint(BigInt((field << 3) | 2)), ...varint(BigInt(bytes.length)), ...bytes];
const text = (field: number, s: string) => len(field, [...Buffer.from(s, "utf8")]);
const fixed64 = (field: number, n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(n);
  return [...varint(BigInt((field << 3) | 1)), ...b];
};
function anyValue(v: AnyValue): number[] {
  if (v.stringValue !== undefined) return text(1, v.stringValue);
  if (v.boolValue !== undefined) return [...varint(BigInt(2 << 3)), v.boolValue ? 1 : 0];
  if (v.intValue !== undefined) return [...varint(BigInt(3 << 3)), ...varint(BigInt(v.intValue))];
  if (v.doubleValue !== undefined) {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(v.doubleValue);
    return [...varint(BigInt((4 << 3) | 1)), ...b];
  }
  return []; // an empty AnyValue (the exporter's unset body)
}
const keyValue = (field: number, kv: KeyValue) => len(field, [...text(1, kv.key), ...len(2, anyValue(kv.value))]);
function protobufOf(request: LogsRequestJson): Uint8Array {
  const bytes = request.resourceLogs.flatMap((rl) =>
    len(1, [
      ...len(
        1,
        rl.resource.attributes.flatMap((kv) => keyValue(1, kv)),
      ),
      ...rl.scopeLogs.flatMap((sl) =>
        len(2, [
          ...len(1, [...text(1, sl.scope.name), ...(sl.scope.version ? text(2, sl.scope.version) : [])]),
          ...sl.logRecords.flatMap((r) =>
            len(2, [
              ...fixed64(1, BigInt(r.timeUnixNano)),
              ...len(5, anyValue(r.body)),
              ...r.attributes.flatMap((kv) => keyValue(6, kv)),
              ...fixed64(11, BigInt(r.observedTimeUnixNano)),
              ...text(12, r.eventName),
            ]),
          ),
        ]),
      ),
    ]),
  );
  return new Uint8Array(bytes);
}

async function postLogs(key: string, body: Uint8Array | string, contentType: string) {
  const response = await otlpLogsRoute(
    new Request("http://cuescope.test/api/v1/otlp/v1/logs", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": contentType },
      body: typeof body === "string" ? body : Buffer.from(body),
    }),
  );
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

// --- the recipe's code, run with stand-ins for the OpenTelemetry packages -----------------------------

/** The ```python block of the doc's "From Python with OpenTelemetry" section. */
function recipeSnippet(): string {
  const doc = readFileSync(DOC, "utf8");
  const section = doc.slice(doc.indexOf("## From Python with OpenTelemetry"));
  const match = /```python\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error(`${DOC}: no \`\`\`python block under "From Python with OpenTelemetry"`);
  return match[1];
}

/**
 * Stand-ins for the modules the recipe imports: they keep what the recipe hands them and encode the
 * emitted records as opentelemetry-exporter-otlp-proto-common's encode_logs does (one ResourceLogs per
 * provider, one ScopeLogs per logger, AnyValue by Python type, an unset body as an empty AnyValue),
 * written as OTLP/JSON. The observed time (which the SDK takes from the clock) is the record's time +
 * 250 µs, as in the fixture. Then it drives the recipe's cuescope_event with each fixture record's
 * values and prints what came out.
 */
const DRIVER = String.raw`
import json, sys, types

emitted, exporters = [], []

class OTLPLogExporter:
    def __init__(self, endpoint=None, headers=None, **options):
        self.endpoint, self.headers = endpoint, dict(headers or {})
        exporters.append(self)

class BatchLogRecordProcessor:
    def __init__(self, exporter, **options):
        self.exporter = exporter

class Resource:
    def __init__(self, attributes):
        self.attributes = attributes

    @staticmethod
    def create(attributes=None, schema_url=None):
        defaults = {"telemetry.sdk.language": "python", "telemetry.sdk.name": "opentelemetry", "telemetry.sdk.version": "1.44.0"}
        return Resource({**defaults, **(attributes or {})})

class Logger:
    def __init__(self, provider, name, version):
        self.provider, self.scope = provider, (name, version)

    def emit(self, record=None, *, timestamp=None, observed_timestamp=None, context=None, severity_number=None,
             severity_text=None, body=None, attributes=None, event_name=None, exception=None):
        if record is not None:
            raise TypeError("the stand-in takes Logger.emit's keyword arguments only")
        emitted.append({"logger": self, "timestamp": timestamp, "body": body, "attributes": dict(attributes or {}),
                        "event_name": event_name, "severity_number": severity_number, "severity_text": severity_text})

class LoggerProvider:
    def __init__(self, resource=None, **options):
        self.resource = resource or Resource.create()
        self.processors = []

    def add_log_record_processor(self, processor):
        self.processors.append(processor)

    def get_logger(self, name, version=None, schema_url=None, attributes=None):
        return Logger(self, name, version)

    def shutdown(self):
        pass

def module(name, **members):
    m = types.ModuleType(name)
    m.__dict__.update(members)
    sys.modules[name] = m

for name in ["opentelemetry", "opentelemetry.exporter", "opentelemetry.exporter.otlp", "opentelemetry.exporter.otlp.proto",
             "opentelemetry.exporter.otlp.proto.http", "opentelemetry.sdk"]:
    module(name)
module("opentelemetry.exporter.otlp.proto.http._log_exporter", OTLPLogExporter=OTLPLogExporter)
module("opentelemetry.sdk._logs", LoggerProvider=LoggerProvider)
module("opentelemetry.sdk._logs.export", BatchLogRecordProcessor=BatchLogRecordProcessor)
module("opentelemetry.sdk.resources", Resource=Resource)

def value(v):
    if v is None: return {}
    if isinstance(v, bool): return {"boolValue": v}
    if isinstance(v, str): return {"stringValue": v}
    if isinstance(v, int): return {"intValue": str(v)}
    if isinstance(v, float): return {"doubleValue": v}
    if isinstance(v, (list, tuple)): return {"arrayValue": {"values": [value(x) for x in v]}}
    if isinstance(v, dict): return {"kvlistValue": {"values": attributes(v)}}
    raise TypeError(type(v))

def attributes(attrs):
    return [{"key": k, "value": value(v)} for k, v in attrs.items()]

def log_record(e):
    record = {"timeUnixNano": str(e["timestamp"]), "observedTimeUnixNano": str(e["timestamp"] + 250_000),
              "body": value(e["body"]), "attributes": attributes(e["attributes"])}
    if e["severity_number"] is not None: record["severityNumber"] = int(e["severity_number"])
    if e["severity_text"]: record["severityText"] = e["severity_text"]
    if e["event_name"]: record["eventName"] = e["event_name"]
    return record

def request(records):
    resource_logs = []
    for e in records:
        provider, (name, version) = e["logger"].provider, e["logger"].scope
        rl = next((r for r in resource_logs if r["_p"] is provider), None)
        if rl is None:
            rl = {"_p": provider, "resource": {"attributes": attributes(provider.resource.attributes)}, "scopeLogs": []}
            resource_logs.append(rl)
        scope = {"name": name, **({"version": version} if version else {})}
        sl = next((s for s in rl["scopeLogs"] if s["scope"] == scope), None)
        if sl is None:
            sl = {"scope": scope, "logRecords": []}
            rl["scopeLogs"].append(sl)
        sl["logRecords"].append(log_record(e))
    for rl in resource_logs:
        del rl["_p"]
    return {"resourceLogs": resource_logs}

snippet_file, calls_file = sys.argv[1], sys.argv[2]
recipe = {"__name__": "recipe"}
exec(compile(open(snippet_file, encoding="utf-8").read(), "the recipe", "exec"), recipe)
examples = request(emitted)
emitted.clear()
for c in json.load(open(calls_file, encoding="utf-8")):
    recipe["cuescope_event"](c["runId"], c["type"], c["body"], turn=c["turn"], event_id=c["id"], time_ns=int(c["timeUnixNano"]))
print(json.dumps({"exporters": [{"endpoint": x.endpoint, "headers": x.headers} for x in exporters],
                  "examples": examples, "request": request(emitted)}))
`;

interface RecipeRun {
  exporters: { endpoint: string; headers: Record<string, string> }[];
  examples: LogsRequestJson;
  request: LogsRequestJson;
}

function runRecipe(dir: string): Promise<RecipeRun> {
  writeFileSync(join(dir, "driver.py"), DRIVER);
  writeFileSync(join(dir, "recipe.py"), recipeSnippet());
  const calls = records.map((r, i) => ({ ...expectedEvents[i], timeUnixNano: r.timeUnixNano }));
  writeFileSync(join(dir, "calls.json"), JSON.stringify(calls));
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [join(dir, "driver.py"), join(dir, "recipe.py"), join(dir, "calls.json")], {
      env: { ...process.env, CUESCOPE_API_KEY: "cs_recipe_key", PYTHONDONTWRITEBYTECODE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(JSON.parse(stdout) as RecipeRun) : reject(new Error(`python exited ${code}: ${stderr}`)),
    );
  });
}

describe("the Python OpenTelemetry recipe (docs/contract/otlp.md) and its fixture", () => {
  let dir: string;
  beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), "cuescope-otel-python-"))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("the fixture is a whole run: run.started first, run.ended last, ids in emission order", () => {
    expect(expectedEvents.map((e) => e.type)).toEqual([
      "run.started",
      ...[1, 2, 3].flatMap(() => ["meter.requests", "meter.time", "request.final", "request.submitted", "model.action"]),
      "run.ended",
    ]);
    expect(new Set(expectedEvents.map((e) => e.runId))).toEqual(new Set([RUN_ID]));
    expect(expectedEvents.map((e) => e.id)).toEqual([...expectedEvents.map((e) => e.id)].sort());
  });

  it("the recipe's code, given the fixture's events, makes the fixture's records, and sends them where the contract says", async () => {
    expect(existsSync(PYTHON), `${PYTHON} is missing: this test runs the recipe's Python code (apt-get install -y python3)`).toBe(true);
    const out = await runRecipe(dir);
    expect(out.request).toEqual(fixture);
    expect(out.exporters).toEqual([
      { endpoint: "http://localhost:3000/api/v1/otlp/v1/logs", headers: { Authorization: "Bearer cs_recipe_key" } },
    ]);
    // The recipe's own example calls make records too (checked against the server below).
    expect(out.examples.resourceLogs[0].scopeLogs[0].logRecords.length).toBeGreaterThanOrEqual(3);
    writeFileSync(join(dir, "examples.json"), JSON.stringify(out.examples));
  });

  describe.each(testDatabases())("posted to the logs route on $name", (kind) => {
    let db: Database;
    let jsonKey: string;
    let protoKey: string;
    const projectId = (name: string) => db.prisma.project.findUniqueOrThrow({ where: { name } }).then((p) => p.id);
    const eventsOf = async (project: string, runId: string) =>
      (
        await db.prisma.event.findMany({
          where: { projectId: await projectId(project), run: { runId } },
          orderBy: { eventId: "asc" },
          include: { run: { select: { runId: true } } },
        })
      ).map((e) => ({ id: e.eventId, runId: e.run.runId, type: e.type, ts: e.ts, turn: e.turn, body: e.body }));

    beforeAll(async () => {
      db = await kind.open();
      useDatabase(db);
      jsonKey = (await createKey(db, "otel-python-json")).secret;
      protoKey = (await createKey(db, "otel-python-proto")).secret;
    }, 60_000);
    afterAll(() => db?.close());

    it("as OTLP/JSON: every log record is its event, and the run rebuilds as the contract says", async () => {
      const answer = await postLogs(jsonKey, fixtureText, "application/json");
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body.toString())).toEqual({}); // no partialSuccess: everything was stored
      expect(await eventsOf("otel-python-json", RUN_ID)).toEqual(storedEvents);
      // A timeUnixNano with sub-millisecond digits is truncated, never rounded up.
      expect(records[1].timeUnixNano).toBe("1795946460100123456");
      expect(expectedEvents[1].ts).toBe("2026-11-29T10:01:00.100Z");

      await settleRebuilds(db);
      const decisions = await getDecisions(db, await projectId("otel-python-json"), RUN_ID);
      // The fixture's policy: requests limit 10, reserve 2 (usable 8), stages 0.5 and 0.9; time 600,000 ms,
      // stages 0.5 and 0.9; no context section, so every reminder fits (R8) and capacityBytes is null.
      const reminders = decisions.turns.map((t) => t.reminders.map(({ key, kind: k, stage, status }) => ({ key, kind: k, stage, status })));
      expect(decisions.turns.map((t) => t.turn)).toEqual([1, 2, 3]);
      expect(reminders).toEqual([
        [], // 0/8 requests, 0 ms: stage 0 everywhere
        [{ key: "requests", kind: "notice", stage: 1, status: "delivered" }], // 4/8 = 0.5
        [
          { key: "requests", kind: "notice", stage: 2, status: "delivered" }, // 8/8 = 1 >= 0.9
          { key: "time", kind: "notice", stage: 1, status: "delivered" }, // 310,000/600,000 = 0.5167
        ],
      ]);
      expect(decisions.turns[2]).toMatchObject({
        requiredBytes: 1800,
        capacityBytes: null,
        meters: {
          requests: { used: 8, limit: 10, reserve: 2, usable: 8, ratio: 1, stage: 2 },
          time: { elapsedMs: 310_000, limitMs: 600_000, ratio: 0.5167, stage: 1 },
        },
      });
      // The agent's own lists (request.submitted's reminders) match the rebuild: no findings.
      expect(decisions.findings).toEqual([]);
      expect((await getRunSummary(db, await projectId("otel-python-json"), RUN_ID)).status).toBe("completed");
    });

    it("as protobuf, what the Python exporter sends: the same events and decisions", async () => {
      const answer = await postLogs(protoKey, protobufOf(fixture), "application/x-protobuf");
      expect(answer.status).toBe(200);
      expect(answer.body.length).toBe(0); // an empty ExportLogsServiceResponse: nothing rejected
      expect(await eventsOf("otel-python-proto", RUN_ID)).toEqual(storedEvents);
      await settleRebuilds(db);
      expect(await getDecisions(db, await projectId("otel-python-proto"), RUN_ID)).toEqual(
        await getDecisions(db, await projectId("otel-python-json"), RUN_ID),
      );
    });

    it("the recipe's own example calls are valid events (stored, none rejected)", async () => {
      const file = join(dir, "examples.json");
      expect(existsSync(file), "needs the recipe test above (it ran the recipe's code)").toBe(true);
      const examples = JSON.parse(readFileSync(file, "utf8")) as LogsRequestJson;
      const logRecords = examples.resourceLogs.flatMap((rl) => rl.scopeLogs.flatMap((sl) => sl.logRecords));
      const answer = await postLogs(jsonKey, JSON.stringify(examples), "application/json");
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body.toString())).toEqual({});
      const runId = attribute(logRecords[0], "cuescope.run_id")!.stringValue!;
      // Their ids sort in emission order, as eventsOf lists them.
      expect((await eventsOf("otel-python-json", runId)).map((e) => e.type)).toEqual(
        logRecords.map((r) => attribute(r, "cuescope.type")!.stringValue),
      );
    });
  });
});
