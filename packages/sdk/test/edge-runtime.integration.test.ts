import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { EdgeVM } from "@edge-runtime/vm";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/server/db";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { getDecisions } from "@/lib/server/runs/run-reads";
import { testDatabases } from "@/lib/server/testing/databases";
import { buildPackage, type BuiltPackage } from "./built-package";
import { closeHostedIngest, openHostedIngest, type IngestHost } from "./ingest-host";

// The built package in an edge-like runtime: Vercel's EdgeVM (@edge-runtime/vm), a V8 context
// with the Web APIs of an edge function (fetch, AbortController, crypto, timers) and no Node
// globals (no process, require or Buffer). The VM runs scripts, not modules, so the built dist/
// (index.js, coordinator.js and their chunk) is bundled with zod into one script first — the SDK's
// code as published, unchanged.

describe.each(testDatabases())("@cuescope/sdk in the edge runtime (EdgeVM) on $name", (kind) => {
  let db: Database;
  let key: string;
  let host: IngestHost;
  let built: BuiltPackage;
  let script: string;

  beforeAll(async () => {
    ({ db, key, host } = await openHostedIngest(kind, "edge"));
    built = buildPackage();
    const entry = join(built.root, "edge-entry.mjs");
    writeFileSync(
      entry,
      `export { createCuescope } from "@cuescope/sdk";\nexport { createCoordinator } from "@cuescope/sdk/coordinator";\n`,
    );
    const out = await build({
      entryPoints: [entry],
      absWorkingDir: built.root,
      bundle: true,
      write: false,
      format: "iife",
      globalName: "CuescopeSDK",
      platform: "browser",
      target: "es2022",
      logLevel: "silent",
    });
    script = out.outputFiles[0].text;
  }, 120_000);
  afterAll(async () => {
    built?.remove();
    await closeHostedIngest({ db, host });
  });

  it("has no Node globals, and records a coordinated run the server stores and rebuilds with zero findings", async () => {
    const vm = new EdgeVM();
    expect(vm.evaluate("[typeof process, typeof require, typeof Buffer]")).toEqual(["undefined", "undefined", "undefined"]);
    vm.evaluate(script);
    const runId = `edge-${kind.name}`;
    const result = (await vm.evaluate(`(async () => {
      const { createCuescope, createCoordinator } = CuescopeSDK;
      const errors = [];
      const cs = createCuescope({ url: ${JSON.stringify(host.url)}, apiKey: ${JSON.stringify(key)}, flushIntervalMs: 10, onError: (e) => errors.push(e.message) });
      const run = cs.startRun({ runId: ${JSON.stringify(runId)}, task: "edge", agent: "edge-agent",
        policy: { requests: { limit: 12, deliveryReserve: 2, stages: [0.5, 0.9] }, context: { capacityBytes: 2000, stages: [0.7, 0.9] }, review: { everyTurns: 4 } } });
      const coordinator = createCoordinator(run);
      let sent = 0;
      for (let turn = 1; turn <= 8; turn++) {
        run.meterRequests({ used: turn }, { turn });
        const plan = coordinator.decide({ turn, requiredBytes: 1000 + turn * 110 });
        sent += plan.included.length;
        coordinator.submitted(plan, "ok");
        run.modelAction({ kind: "tool_call" }, { turn });
      }
      run.end({ status: "completed" });
      await cs.shutdown();
      return JSON.stringify({ stats: cs.stats(), errors, sent, findings: coordinator.findings() });
    })()`)) as string;
    const { stats, errors, sent, findings } = JSON.parse(result);
    expect(errors).toEqual([]);
    expect(findings).toEqual([]);
    expect(sent).toBeGreaterThan(0);
    expect(stats).toMatchObject({ acknowledged: stats.sent, dropped: 0, rejected: 0, buffered: 0 });

    await settleRebuilds(db);
    const run = await db.prisma.run.findFirstOrThrow({ where: { runId } });
    expect(run.status).toBe("completed");
    expect(run.eventCount).toBe(stats.sent);
    const decisions = await getDecisions(db, run.projectId, runId);
    expect(decisions.findings).toEqual([]);
    expect(decisions.turns.flatMap((t) => t.reminders).filter((r) => r.status === "delivered")).toHaveLength(sent);
  });
});
