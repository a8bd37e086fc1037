import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPackage } from "./built-package";

// The built package as a TypeScript consumer sees it: installed in node_modules (package.json,
// README.md, dist/ — what npm publishes) next to zod, imported from a project under
// module node16 / moduleResolution nodenext (with skipLibCheck off, so the declarations themselves
// must check too) and under bundler resolution, checked by tsc. A deliberate mistake must fail.

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

const USAGE = `import { createCuescope, CuescopeError, type Run, type CuescopeStats } from "@cuescope/sdk";
import { createCoordinator, type TurnPlan } from "@cuescope/sdk/coordinator";

const cuescope = createCuescope({ url: "http://localhost:3000", apiKey: "cs_key", onError: (e: CuescopeError) => console.warn(e.kind) });
const run: Run = cuescope.startRun({
  task: "Compare VOO and IVV fees",
  policy: { requests: { limit: 60, deliveryReserve: 6, stages: [0.5, 0.75, 0.9] }, context: { capacityBytes: 9000, stages: [0.7] } },
});
const coordinator = createCoordinator(run);
run.meterRequests({ used: 1 }, { turn: 1 });
run.blockEdited({ blockId: "b1", used: 2, limit: 4 }, { turn: 1 });
const plan: TurnPlan = coordinator.decide({ turn: 1, requiredBytes: 4200 });
const prompt: string = plan.text;
const stage: number | undefined = plan.meters.context?.stage;
coordinator.submitted(plan, "ok");
const admission = coordinator.reviewer(plan);
if (admission?.granted) run.reviewerDispatched({ candidateId: admission.candidateId, dispatchId: "d1" }, { turn: 1 });
run.modelAction({ kind: "edit_block", blockId: "b1" }, { turn: 1 });
run.end({ status: "completed" });
const stats: CuescopeStats = cuescope.stats();
export const done: Promise<void> = cuescope.shutdown();
export { prompt, stage, stats };
`;

const MISTAKE = `import { createCuescope } from "@cuescope/sdk";
const run = createCuescope({ url: "u", apiKey: "k" }).startRun({ task: "t", policy: {} });
run.meterRequests({ used: "one" }, { turn: 1 });
`;

const CONFIGS = {
  // skipLibCheck off: the package's declarations (and zod's) are checked too — the slow one (~10 s)
  nodenext: { module: "node16", moduleResolution: "nodenext", packageType: "module", skipLibCheck: false },
  bundler: { module: "esnext", moduleResolution: "bundler", packageType: "commonjs", skipLibCheck: true },
} as const;

type Config = keyof typeof CONFIGS;

/** tsc over a project, without throwing: its exit status and what it printed. */
function check(dir: string): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [tsc, "-p", "."], { cwd: dir }, (error, stdout) => resolve({ ok: error === null, output: stdout })),
  );
}

describe("a TypeScript consumer of the built @cuescope/sdk", () => {
  const results = new Map<Config, { ok: boolean; output: string }>();
  let built: ReturnType<typeof buildPackage> | undefined;
  afterAll(() => built?.remove());

  // One build, then both consumer projects (each the typed usage and the deliberate mistake) checked at once.
  beforeAll(async () => {
    built = buildPackage();
    const root = built.root;
    const checks = (Object.keys(CONFIGS) as Config[]).map(async (name) => {
      const { module, moduleResolution, packageType, skipLibCheck } = CONFIGS[name];
      const dir = join(root, name);
      mkdirSync(dir);
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `consumer-${name}`, private: true, type: packageType }));
      const compilerOptions = {
        target: "ES2022",
        lib: ["ES2023", "DOM"],
        module,
        moduleResolution,
        strict: true,
        noEmit: true,
        skipLibCheck,
        types: [],
      };
      writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["*.ts"] }));
      writeFileSync(join(dir, "agent.ts"), USAGE);
      writeFileSync(join(dir, "mistake.ts"), MISTAKE);
      results.set(name, await check(dir));
    });
    await Promise.all(checks);
  }, 120_000);

  it.each(Object.keys(CONFIGS) as Config[])(
    "under moduleResolution %s: the typed usage checks, the wrong body type is the one error",
    (name) => {
      const { ok, output } = results.get(name)!;
      expect(ok).toBe(false);
      const errors = output.trim().split("\n");
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^mistake\.ts\(3,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
    },
  );
});
