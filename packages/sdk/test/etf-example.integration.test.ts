import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/server/db";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { getDecisions, getRunSummary } from "@/lib/server/runs/run-reads";
import { testDatabases } from "@/lib/server/testing/databases";
import { REPO_ROOT } from "./built-package";
import { closeHostedIngest, openHostedIngest, type IngestHost } from "./ingest-host";

// CI runs the example agent (examples/etf-agent) exactly as its README says — `npx tsx
// examples/etf-agent/agent.ts --url … --key …`, here as `node --import tsx` — against the real
// ingest route, then reads the run back with the app's own server code.

function runExample(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "examples/etf-agent/agent.ts", ...args], {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe.each(testDatabases())("examples/etf-agent on $name", (kind) => {
  let db: Database;
  let key: string;
  let host: IngestHost;

  beforeAll(async () => void ({ db, key, host } = await openHostedIngest(kind, "etf-example")), 60_000);
  afterAll(() => closeHostedIngest({ db, host }));

  it("records a run that the server stores, ends and rebuilds with its reminders and zero findings", async () => {
    const runId = `etf-example-${kind.name}`;
    const { code, stdout, stderr } = await runExample(["--url", host.url, "--key", key, "--fast", "--turns", "30", "--run-id", runId]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain(`${host.url}/runs/${runId}`);
    const report = JSON.parse(stdout.trim().split("\n").pop()!) as { runId: string; turns: number; events: number; findings: number };
    expect(report).toMatchObject({ runId, findings: 0 });

    await settleRebuilds(db);
    const { projectId } = await db.prisma.run.findFirstOrThrow({ where: { runId } });
    const summary = await getRunSummary(db, projectId, runId);
    const decisions = await getDecisions(db, projectId, runId);
    const stored = await db.prisma.event.count({ where: { run: { runId } } });

    expect(stored).toBe(report.events);
    expect(summary.status).toBe("completed");
    expect(decisions.findings).toEqual([]);
    expect(decisions.turns).toHaveLength(report.turns);
    expect(report.turns).toBeGreaterThanOrEqual(20);
    const reminders = decisions.turns.flatMap((t) => t.reminders);
    expect(new Set(reminders.map((r) => r.key))).toEqual(new Set(["requests", "time", "context", "edits", "review"]));
    expect(reminders.filter((r) => r.status === "delivered").length).toBeGreaterThan(10);
    expect(decisions.turns.some((t) => t.reviewer?.admission.granted)).toBe(true);
    const types = await db.prisma.event.groupBy({ by: ["type"], where: { run: { runId } }, _count: true });
    expect(types.map((t) => t.type).sort()).toEqual(
      expect.arrayContaining([
        "block.edited",
        "context.compaction",
        "meter.requests",
        "meter.time",
        "model.action",
        "reminders.marked",
        "request.final",
        "request.submitted",
        "reviewer.admission",
        "reviewer.candidate",
        "reviewer.completed",
        "reviewer.dispatched",
        "run.ended",
        "run.started",
        "user.notified",
      ]),
    );
  }, 120_000);
});
