// Runs the built @cuescope/sdk under another JavaScript runtime (Bun, Deno, Node) against a running
// Cuescope server, and checks what the server stored and rebuilt:
//
//   npx tsx packages/sdk/smoke/runtime-smoke.ts --runtime bun --url http://127.0.0.1:3000 --key cs_…
//
// `--runtime` is the runtime's command (`bun`, `deno`, `node`, or a path to one). The package is
// built as published into a temporary folder (zod beside it), a small agent script there records a
// 20-turn run with the in-process coordinator using fetch only, and the server's run summary must
// then show every event stored, the run ended, and zero findings. Not part of `npm test`: Bun and
// Deno are not dependencies of this repository (see packages/sdk/README.md, "Runtimes").
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { TRunSummary } from "@/lib/contracts";
import { buildPackage } from "../test/built-package";

const AGENT = `
import { createCuescope } from "@cuescope/sdk";
import { createCoordinator } from "@cuescope/sdk/coordinator";
const [url, apiKey, runtime] = [globalThis.SMOKE.url, globalThis.SMOKE.key, globalThis.SMOKE.runtime];
const errors = [];
const cuescope = createCuescope({ url, apiKey, onError: (e) => errors.push(e.message), flushOnExit: false });
const run = cuescope.startRun({
  task: "Runtime smoke test on " + runtime,
  agent: "sdk-smoke-" + runtime,
  policy: {
    requests: { limit: 30, deliveryReserve: 3, stages: [0.5, 0.75, 0.9] },
    context: { capacityBytes: 4000, stages: [0.7, 0.85, 0.95] },
    review: { everyTurns: 5 },
  },
});
const coordinator = createCoordinator(run);
for (let turn = 0; turn < 20; turn++) {
  run.meterRequests({ used: turn + 1 }, { turn });
  const plan = coordinator.decide({ turn, requiredBytes: 1500 + turn * 120 });
  coordinator.submitted(plan, "ok");
}
run.end({ status: "completed" });
await cuescope.shutdown();
console.log(JSON.stringify({ runId: run.runId, stats: cuescope.stats(), errors, findings: coordinator.findings().length }));
`;

function arg(name: string, fallback?: string): string {
  const i = process.argv.indexOf(`--${name}`);
  const value = i > 0 ? process.argv[i + 1] : fallback;
  if (!value) throw new Error(`--${name} is required`);
  return value;
}

/** The command line that runs `file` (an ES module) under `runtime`. */
function commandFor(runtime: string, file: string): string[] {
  const name = basename(runtime);
  if (name.startsWith("deno")) return [runtime, "run", "--allow-net", "--allow-env", "--allow-read", file];
  return [runtime, file]; // bun and node
}

async function main() {
  const runtime = arg("runtime");
  const url = arg("url", process.env.CUESCOPE_URL);
  const key = arg("key", process.env.CUESCOPE_API_KEY);
  const built = buildPackage();
  try {
    const name = basename(runtime).replace(/[^a-z]/gi, "") || "runtime";
    writeFileSync(join(built.root, "package.json"), JSON.stringify({ name: "sdk-smoke", private: true, type: "module" }));
    const file = join(built.root, "agent.mjs");
    writeFileSync(file, `globalThis.SMOKE = ${JSON.stringify({ url, key, runtime: name })};\n${AGENT}`);
    const [command, ...args] = commandFor(runtime, file);
    const reported = spawnSync(command, ["--version"], { encoding: "utf8" }).stdout.trim().split("\n")[0] ?? "";
    const version = reported.startsWith(name) ? reported : `${name} ${reported}`;
    console.error(`running the built SDK under ${version}…`);
    const result = spawnSync(command, args, { cwd: built.root, encoding: "utf8", timeout: 120_000 });
    if (result.status !== 0) throw new Error(`${command} exited ${result.status}: ${result.stderr || result.stdout}`);
    const out = JSON.parse(result.stdout.trim().split("\n").at(-1)!) as {
      runId: string;
      stats: { sent: number; acknowledged: number; dropped: number; rejected: number; invalid: number };
      errors: string[];
      findings: number;
    };
    const problems: string[] = [];
    if (out.errors.length) problems.push(`the SDK reported: ${out.errors.join("; ")}`);
    if (out.stats.acknowledged !== out.stats.sent || out.stats.dropped || out.stats.rejected || out.stats.invalid)
      problems.push(`stats ${JSON.stringify(out.stats)}`);
    if (out.findings !== 0) problems.push(`${out.findings} findings in the coordinator's own rebuild`);

    // The server's view, once its background rebuild has caught up.
    let summary: Partial<Pick<TRunSummary, "eventCount" | "status" | "findings" | "staleEvents" | "rebuildPending">> = {};
    for (let attempt = 0; attempt < 60; attempt++) {
      const response = await fetch(new URL(`/api/v1/runs/${encodeURIComponent(out.runId)}`, url), {
        headers: { authorization: `Bearer ${key}` },
      });
      if (response.ok) {
        // The API answers a TRunSummary (a type-only import: this ES module cannot load the app's CommonJS contracts).
        const { eventCount, status, findings, staleEvents, rebuildPending } = (await response.json()) as TRunSummary;
        summary = { eventCount, status, findings, staleEvents, rebuildPending };
        if (staleEvents === 0 && !rebuildPending) break;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    if (summary.eventCount !== out.stats.sent) problems.push(`the server holds ${summary.eventCount} events, ${out.stats.sent} were sent`);
    if (summary.status !== "completed") problems.push(`the run's status is ${summary.status}`);
    if (summary.findings !== 0) problems.push(`the server's rebuild has ${summary.findings} findings`);
    console.log(
      JSON.stringify({ runtime: version || command, runId: out.runId, stats: out.stats, server: summary, ok: problems.length === 0 }),
    );
    if (problems.length) throw new Error(problems.join("\n"));
  } finally {
    built.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
