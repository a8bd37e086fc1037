import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = `${root}dist/`;

// Builds the package as `npm run sdk:build` does, so CI builds and checks it on every test run.
describe("the built @cuescope/sdk", () => {
  beforeAll(() => {
    execFileSync(process.execPath, [`${root}build.mjs`], { stdio: "pipe" });
  }, 120_000);

  it("has the files package.json exports", () => {
    const pkg = JSON.parse(readFileSync(`${root}package.json`, "utf8"));
    expect(pkg.exports["."]).toEqual({ types: "./dist/index.d.ts", import: "./dist/index.js" });
    expect(Object.keys(pkg.dependencies)).toEqual(["zod"]);
    expect(existsSync(`${dist}index.d.ts`)).toBe(true);
    expect(readFileSync(`${dist}types/packages/sdk/src/client.d.ts`, "utf8")).toMatch(/createCuescope/);
  });

  it("imports as ESM, with zod the only import and no app internals", async () => {
    const code = readFileSync(`${dist}index.js`, "utf8");
    const imports = [...code.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
    expect(new Set(imports)).toEqual(new Set(["zod"]));
    const sdk = await import(/* @vite-ignore */ pathToFileURL(`${dist}index.js`).href);
    expect(typeof sdk.createCuescope).toBe("function");
    const sent: unknown[] = [];
    const cs = sdk.createCuescope({
      url: "http://cuescope.test",
      apiKey: "k",
      flushOnExit: false,
      fetch: async (_: string, init: RequestInit) => {
        const batch = JSON.parse(String(init.body)).batch as { id: string }[];
        sent.push(...batch);
        return Response.json({ results: batch.map((e) => ({ id: e.id, status: "created" })) }, { status: 207 });
      },
    });
    const run = cs.startRun({
      task: "t",
      policy: {
        requests: { limit: 40, deliveryReserve: 4, stages: [0.5, 0.75, 0.9] },
        context: { capacityBytes: 10000, stages: [0.7, 0.85, 0.95] },
      },
    });
    run.meterRequests({ used: 1 }, { turn: 1 });
    await cs.shutdown();
    expect(sent).toHaveLength(2);
  });
});
