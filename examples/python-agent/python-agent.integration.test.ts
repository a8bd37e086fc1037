import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCuescope, type CuescopeError } from "@/packages/sdk/src/index";
import type { TEvent, TRunDecisions } from "@/lib/contracts";
import { importLines } from "@/lib/client/import-lines";
import { httpSink } from "@/lib/client/ingest-sink";
import type { Database } from "@/lib/server/db";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { getDecisions, getRunSummary } from "@/lib/server/runs/run-reads";
import { testDatabases } from "@/lib/server/testing/databases";
import { REPO_ROOT } from "@/packages/sdk/test/built-package";
import { closeHostedIngest, openHostedIngest, type IngestHost } from "@/packages/sdk/test/ingest-host";

// examples/python-agent run as its README says (`python3 examples/python-agent/agent.py --url … --key …`,
// the package on PYTHONPATH) against the app's real ingest route on a real database. One scripted run
// goes in three ways, each under its own run id:
//   py-sent  the agent through the Python package (packages/python);
//   jsonl    the agent's --jsonl output, posted as `npm run import` posts JSON Lines (lib/client);
//   ts-sdk   the same JSON Lines events recorded one by one through the TypeScript SDK (packages/sdk).
// Their stored events and their rebuilt decisions must be the same, run id aside.

const PYTHON = "/usr/bin/python3";
const AGENT = "examples/python-agent/agent.py";
const TURNS = 30;

function python(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [AGENT, ...args], {
      cwd: REPO_ROOT,
      // No __pycache__ left in packages/python by the test.
      env: { ...process.env, PYTHONPATH: join(REPO_ROOT, "packages/python"), PYTHONDONTWRITEBYTECODE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The run's events in run order (contract §2), as sent: what an agent controls, its run id made `RUN`. */
async function storedEvents(db: Database, projectId: string, runId: string) {
  const rows = await db.prisma.event.findMany({ where: { projectId, run: { runId } }, orderBy: { seq: "asc" } });
  const rank = (type: string) => (type === "run.started" ? 0 : type === "run.ended" ? 2 : 1);
  return rows
    .map((e) => ({ id: e.eventId.replace(runId, "RUN"), type: e.type, turn: e.turn, ts: e.ts, body: e.body }))
    .sort((a, b) => rank(a.type) - rank(b.type) || (a.turn ?? 0) - (b.turn ?? 0) || a.ts.localeCompare(b.ts) || a.id.localeCompare(b.id));
}

/** The decisions as JSON text with the run id left out: byte-comparable between runs. */
const decisionsText = (decisions: TRunDecisions) => JSON.stringify({ ...decisions, runId: "RUN" });

describe.each(testDatabases())("examples/python-agent on $name", (kind) => {
  let db: Database;
  let key: string;
  let host: IngestHost;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "cuescope-python-agent-"));
    ({ db, key, host } = await openHostedIngest(kind, "python-agent"));
  }, 60_000);
  afterAll(async () => {
    await closeHostedIngest({ db, host });
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("sends, through the Python package, the run its JSON Lines hold and the TypeScript SDK sends: same events, same rebuilt decisions", async () => {
    expect(existsSync(PYTHON), `${PYTHON} is missing: the Python example and package need it (apt-get install -y python3)`).toBe(true);
    const runs = { sent: `py-sent-${kind.name}`, jsonl: `py-jsonl-${kind.name}`, ts: `ts-sdk-${kind.name}` };

    // 1. The agent sends its run through the Python package.
    const sent = await python(["--url", host.url, "--key", key, "--run-id", runs.sent, "--turns", String(TURNS), "--quiet"]);
    expect(sent.stderr).toBe("");
    expect(sent.code).toBe(0);
    const report = JSON.parse(sent.stdout.trim().split("\n").pop()!) as { runId: string; turns: number; stats: Record<string, number> };
    expect(report.runId).toBe(runs.sent);
    expect(report.stats).toMatchObject({ rejected: 0, dropped: 0, invalid: 0, buffered: 0 });
    expect(report.stats.acknowledged).toBe(report.stats.sent);

    // 2. The same script written as JSON Lines, posted as the importer posts them.
    const jsonlFile = join(dir, "run.jsonl");
    const written = await python(["--jsonl", jsonlFile, "--run-id", runs.jsonl, "--turns", String(TURNS)]);
    expect(written.stderr).toBe("");
    expect(written.code).toBe(0);
    const jsonl = readFileSync(jsonlFile, "utf8");
    const tally = await importLines(jsonl, httpSink(host.url, key));
    expect(tally.errors).toEqual([]);
    expect(tally.created).toBe(report.stats.acknowledged);

    // 3. The same events recorded through the TypeScript SDK: run.started by startRun, each turn's
    // event by its typed method (with the script's ids and times), run.ended by end.
    const tsFile = join(dir, "ts.jsonl");
    expect((await python(["--jsonl", tsFile, "--run-id", runs.ts, "--turns", String(TURNS)])).code).toBe(0);
    const script = readFileSync(tsFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as TEvent);
    const errors: CuescopeError[] = [];
    const cuescope = createCuescope({
      url: host.url,
      apiKey: key,
      flushIntervalMs: 50,
      flushOnExit: false,
      onError: (e) => errors.push(e),
    });
    const [started, ...rest] = script;
    if (started.type !== "run.started") throw new Error(`the script starts with ${started.type}`);
    const { task, agent, model, policy } = started.body;
    const run = cuescope.startRun({ runId: runs.ts, task, agent, model, policy });
    for (const event of rest) {
      if (event.type === "run.ended") run.end(event.body, { id: event.id, ts: event.ts });
      else if (event.type !== "run.started") run.record(event.type, event.body as never, { turn: event.turn, id: event.id, ts: event.ts });
    }
    await cuescope.shutdown();
    expect(errors).toEqual([]);
    expect(cuescope.stats()).toMatchObject({ sent: script.length, acknowledged: script.length, rejected: 0 });

    await settleRebuilds(db);
    const { projectId } = await db.prisma.run.findFirstOrThrow({ where: { runId: runs.sent } });

    // The package sent exactly the events of the JSON Lines (ids, times, bodies), run.started aside:
    // the package makes its id and takes the time it is called at.
    const fromPython = await storedEvents(db, projectId, runs.sent);
    const fromJsonl = await storedEvents(db, projectId, runs.jsonl);
    const fromTs = await storedEvents(db, projectId, runs.ts);
    expect(fromPython).toHaveLength(script.length);
    const turnEvents = (events: typeof fromPython) => events.filter((e) => e.type !== "run.started");
    expect(turnEvents(fromPython)).toEqual(turnEvents(fromJsonl));
    expect(turnEvents(fromTs)).toEqual(turnEvents(fromJsonl));
    expect(fromPython[0]).toMatchObject({ type: "run.started", body: fromJsonl[0].body });
    expect(fromTs[0]).toMatchObject({ type: "run.started", body: fromJsonl[0].body });

    // Rebuilt decisions: byte for byte the same, run id aside — and a real run, not an empty one.
    const decisions = {
      sent: await getDecisions(db, projectId, runs.sent),
      jsonl: await getDecisions(db, projectId, runs.jsonl),
      ts: await getDecisions(db, projectId, runs.ts),
    };
    expect(decisions.sent.runId).toBe(runs.sent);
    expect(decisionsText(decisions.sent)).toBe(decisionsText(decisions.jsonl));
    expect(decisionsText(decisions.ts)).toBe(decisionsText(decisions.jsonl));
    expect(decisions.sent.turns.map((t) => t.turn)).toEqual(Array.from({ length: report.turns }, (_, i) => i + 1));
    expect(decisions.sent.findings).toEqual([]);
    const reminders = decisions.sent.turns.flatMap((t) => t.reminders);
    expect(new Set(reminders.map((r) => r.key))).toEqual(new Set(["requests", "time", "context", "edits", "review"]));
    expect(new Set(reminders.map((r) => r.status))).toEqual(new Set(["delivered", "failed", "dropped"]));
    expect(decisions.sent.turns.filter((t) => t.reviewer?.admission.granted).map((t) => t.turn)).toEqual([8, 16, 24]);
    expect((await getRunSummary(db, projectId, runs.sent)).status).toBe("completed");
  }, 60_000);
});
