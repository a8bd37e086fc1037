import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPackage, type BuiltPackage } from "./built-package";

const POLICY = {
  requests: { limit: 40, deliveryReserve: 4, stages: [0.5, 0.75, 0.9] },
  context: { capacityBytes: 10000, stages: [0.7, 0.85, 0.95] },
};

/** A fetch that answers every event created, keeping what it was sent. */
function fakeFetch(sent: unknown[]) {
  return async (_: string, init: RequestInit) => {
    const batch = JSON.parse(String(init.body)).batch as { id: string }[];
    sent.push(...batch);
    return Response.json({ results: batch.map((e) => ({ id: e.id, status: "created" })) }, { status: 207 });
  };
}

// Builds the package as `npm run sdk:build` does, so CI builds and checks it on every test run.
describe("the built @cuescope/sdk", () => {
  let built: BuiltPackage;
  const dist = () => join(built.pkg, "dist");

  beforeAll(() => {
    built = buildPackage();
  }, 120_000);
  afterAll(() => built?.remove());

  it("has the files package.json exports", () => {
    const pkg = JSON.parse(readFileSync(join(built.pkg, "package.json"), "utf8"));
    expect(pkg.exports["."]).toEqual({ types: "./dist/index.d.ts", import: "./dist/index.js" });
    expect(pkg.exports["./coordinator"]).toEqual({ types: "./dist/coordinator.d.ts", import: "./dist/coordinator.js" });
    expect(Object.keys(pkg.dependencies)).toEqual(["zod"]);
    for (const entry of ["index", "coordinator"]) {
      expect(existsSync(join(dist(), `${entry}.js`))).toBe(true);
      expect(existsSync(join(dist(), `${entry}.d.ts`))).toBe(true);
    }
    expect(readFileSync(join(dist(), "types/packages/sdk/src/client.d.ts"), "utf8")).toMatch(/createCuescope/);
    // declarations import only relative .js paths (no "@/" alias, no extensionless path)
    const declarations = execFileSync("grep", ["-rhoE", `from "[^"]+"`, join(dist(), "types")], { encoding: "utf8" });
    for (const spec of new Set(declarations.split("\n").filter(Boolean))) expect(spec).toMatch(/^from "(zod|\.{1,2}\/[^"]+\.js)"$/);
  });

  it("imports as ESM, with zod the only outside import and no app internals", async () => {
    const files = ["index.js", "coordinator.js", ...readdirSync(join(dist(), "chunks")).map((f) => `chunks/${f}`)];
    for (const file of files) {
      const code = readFileSync(join(dist(), file), "utf8");
      const imports = [...code.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
      for (const spec of imports) expect(spec).toMatch(/^(zod|\.{1,2}\/chunks\/[\w-]+\.js|\.\/[\w-]+\.js)$/);
      expect(code).not.toMatch(/from "(node:|@\/|next|@prisma)/);
    }
    const sdk = await import(/* @vite-ignore */ pathToFileURL(join(dist(), "index.js")).href);
    const { createCoordinator } = await import(/* @vite-ignore */ pathToFileURL(join(dist(), "coordinator.js")).href);
    expect(typeof sdk.createCuescope).toBe("function");
    const sent: unknown[] = [];
    const cs = sdk.createCuescope({ url: "http://cuescope.test", apiKey: "k", flushOnExit: false, fetch: fakeFetch(sent) });
    const run = cs.startRun({ task: "t", policy: POLICY });
    const coordinator = createCoordinator(run);
    run.meterRequests({ used: 30 }, { turn: 1 });
    const plan = coordinator.decide({ turn: 1, requiredBytes: 7_500 });
    expect(plan.list).toEqual([
      { key: "requests", subject: null, stage: 2 },
      { key: "context", subject: null, stage: 1 },
    ]);
    coordinator.submitted(plan, "ok");
    await cs.shutdown();
    expect(sent.map((e) => (e as { type: string }).type)).toEqual([
      "run.started",
      "meter.requests",
      "request.final",
      "request.submitted",
      "reminders.marked",
    ]);
  });

  it("packs README.md, package.json and dist/ only (npm pack --dry-run)", () => {
    const [report] = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: built.pkg, encoding: "utf8" }),
    );
    const paths: string[] = report.files.map((f: { path: string }) => f.path);
    expect(report.name).toBe("@cuescope/sdk");
    expect(paths).toEqual(expect.arrayContaining(["package.json", "README.md", "dist/index.js", "dist/coordinator.js", "dist/index.d.ts"]));
    for (const path of paths) expect(path).toMatch(/^(package\.json|README\.md|dist\/.+\.(js|d\.ts))$/);
  });
});
