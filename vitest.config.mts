import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Two projects: the node suites (core, server, scripts) and the component tests, which render
// React in happy-dom with Testing Library (happy-dom starts several times faster than jsdom per
// file). Only the component project pays for the DOM and its setup.
export default defineConfig({
  // `import "server-only"` marks lib/server's Next.js entry points; it throws outside the react-server
  // condition, so the tests (plain Node) load its empty module.
  resolve: {
    alias: {
      "@/": fileURLToPath(new URL("./", import.meta.url)),
      "server-only": fileURLToPath(new URL("./node_modules/server-only/empty.js", import.meta.url)),
    },
  },
  test: {
    testTimeout: 30_000,
    // At least two files at a time, even on two cores (Vitest's default for `vitest run` is one
    // fewer than the cores; this applies to watch mode too): the database suites spend much of
    // their time waiting on PostgreSQL and timers, and each opens a database of its own. On the
    // 2-core CI machine: 16 min with one worker, 12 with two.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Worker threads start and import faster than child processes (forks, Vitest's default): the
    // whole suite 814 → 653 s on the 2-core machine. A test thread cannot process.chdir().
    pool: "threads",
    // Routes hosted by the tests only send jobs: a suite that needs a run rebuilt settles it
    // (lib/server/rebuild/settle.ts) or starts workers itself; CPU work stays on the test's thread.
    env: { CUESCOPE_WORKERS: "0", CUESCOPE_JOB_THREADS: "0", CUESCOPE_REBUILD_DELAY_MS: "0" },
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          include: [
            "lib/**/*.test.ts",
            "scripts/**/*.test.ts",
            "components/**/*.test.ts",
            "packages/**/*.test.ts",
            "examples/**/*.test.ts",
          ],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          name: "components",
          include: ["components/**/*.test.tsx"],
          environment: "happy-dom",
          setupFiles: ["components/testing/setup.ts"],
        },
      },
    ],
  },
});
