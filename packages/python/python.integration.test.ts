import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeHostedIngest, openHostedIngest, type HostedIngest } from "@/packages/sdk/test/ingest-host";
import { testDatabases } from "@/lib/server/testing/databases";

// The Python SDK's pytest suite (packages/python/tests) against the real server: the app's ingest
// route and API (serveApi: the reads the tests check with) on a real database, hosted in-process on
// a free port, as the TypeScript SDK's integration tests do. pytest runs in a child process
// (asynchronously: the server lives on this thread's event loop). The suite's own HTTP proxy injects
// the faults in front of it. CI installs pytest from Debian (python3-pytest, .ci/run); without it
// this test fails rather than skipping.

const PYTHON = process.env.CUESCOPE_TEST_PYTHON ?? "/usr/bin/python3";
const PACKAGE = join(__dirname);

function pytestProblem(): string | null {
  const probe = spawnSync(PYTHON, ["-c", "import pytest, sys; print(sys.version_info[:2] >= (3, 9))"], { encoding: "utf8" });
  if (probe.error) return `${PYTHON} cannot be run (${probe.error.message}): the Python SDK's tests need Python >= 3.9 there`;
  if (probe.status !== 0)
    return `${PYTHON} has no pytest: install it (Debian: apt-get install python3-pytest python3-venv python3-wheel-whl, as .ci/run does)\n${probe.stderr}`;
  if (probe.stdout.trim() !== "True") return `${PYTHON} is older than Python 3.9`;
  return null;
}

function runPytest(url: string, key: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, ["-m", "pytest", "tests", "-q", "-p", "no:cacheprovider", "-rfE", ...args], {
      cwd: PACKAGE,
      env: {
        ...process.env,
        CUESCOPE_TEST_URL: url,
        CUESCOPE_TEST_KEY: key,
        PYTHONDONTWRITEBYTECODE: "1",
        // the suite talks to 127.0.0.1 only: never through a proxy configured for the machine
        NO_PROXY: "127.0.0.1,localhost",
        no_proxy: "127.0.0.1,localhost",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 150_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("the Python SDK (packages/python)", () => {
  it(`has pytest under ${PYTHON}`, () => {
    expect(pytestProblem() ?? "ok").toBe("ok");
  });
});

describe.each(testDatabases())("the Python SDK against the real ingest route ($name)", (kind) => {
  let hosted: Partial<HostedIngest> = {};
  beforeAll(async () => {
    hosted = await openHostedIngest(kind, "python-sdk");
  }, 60_000);
  afterAll(() => closeHostedIngest(hosted));

  it("passes its pytest suite", async () => {
    const problem = pytestProblem();
    if (problem) throw new Error(problem);
    // The install test (a fresh venv, pip, the README's example) tests packaging, not the database: once is enough.
    const args = kind.name === "pglite" ? [] : ["--deselect", "tests/test_install.py"];
    // CUESCOPE_PYTEST_ARGS: extra arguments for a run by hand, split at spaces ("-x --durations=5") or a JSON array.
    const extra = process.env.CUESCOPE_PYTEST_ARGS ?? "";
    args.push(...(extra.startsWith("[") ? (JSON.parse(extra) as string[]) : extra.split(" ").filter(Boolean)));
    const { code, output } = await runPytest(hosted.host!.url, hosted.key!, args);
    if (code !== 0) throw new Error(`pytest failed (exit ${code}):\n${output}`);
    if (process.env.CUESCOPE_PYTEST_ARGS) console.log(output);
    expect(output).toMatch(/\d+ passed/);
    expect(output).not.toMatch(/skipped|xfail/);
  }, 180_000);
});
