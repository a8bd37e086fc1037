import { spawn } from "node:child_process";
import { expect, test, type APIRequestContext } from "@playwright/test";
import type { TRunDecisions, TRunSummary } from "@/lib/contracts";
import { startOwnServer, type OwnServer } from "./support/own-server";
import { signInToDemo } from "./support/sign-in";
import { E2E_PORT } from "./support/targets";

// Issue 28's "done when", against the started server: the Python example agent sends a run through
// the Python package (packages/python), it is on the run page, and it rebuilds to the decisions of
// the same run posted as JSON Lines. (The package's own suite and the TypeScript SDK's equality run
// in vitest, against a hosted ingest route: packages/python, examples/python-agent.) On a server of
// its own, so the shared demo project keeps its runs (the Reviewer specs count its dispatches).

const PORT = E2E_PORT + 4;
let server: OwnServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startOwnServer({ port: PORT, host: "127.0.0.1", dir: ".cuescope/e2e-python-agent" });
});

test.afterAll(async () => {
  await server?.stop();
});

const PYTHON = "/usr/bin/python3";
const AGENT = "examples/python-agent/agent.py";

function python(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [AGENT, ...args], {
      env: { ...process.env, PYTHONPATH: "packages/python", PYTHONDONTWRITEBYTECODE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The run's decisions once its rebuild has every event (the decisions read waits for the rebuild). */
async function decisionsOf(request: APIRequestContext, auth: Record<string, string>, runId: string): Promise<TRunDecisions> {
  const base = server.url;
  let decisions: TRunDecisions | null = null;
  await expect
    .poll(
      async () => {
        const response = await request.get(`${base}/api/v1/runs/${runId}/decisions`, { headers: auth });
        if (!response.ok()) return `HTTP ${response.status()}`;
        decisions = (await response.json()) as TRunDecisions;
        const summary = (await (await request.get(`${base}/api/v1/runs/${runId}`, { headers: auth })).json()) as TRunSummary;
        return summary.status === "completed" && summary.staleEvents === 0 ? "rebuilt" : "behind";
      },
      { timeout: 30_000 },
    )
    .toBe("rebuilt");
  return decisions!;
}

const withoutRunId = (decisions: TRunDecisions) => JSON.stringify({ ...decisions, runId: null });

test("the Python example agent puts a run on the run page, rebuilt exactly as the same run posted as JSON Lines", async ({
  page,
  request,
}) => {
  const key = server.demoKey;
  const auth = { authorization: `Bearer ${key}` };
  const stamp = Date.now().toString(36);
  const runs = { sent: `py-e2e-${stamp}`, jsonl: `py-e2e-jsonl-${stamp}` };

  const sent = await python(["--url", server.url, "--key", key, "--run-id", runs.sent, "--turns", "20", "--quiet"]);
  expect(sent.stderr).toBe("");
  expect(sent.code).toBe(0);

  const written = await python(["--jsonl", "-", "--run-id", runs.jsonl, "--turns", "20"]);
  expect(written.code).toBe(0);
  const batch = written.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as unknown);
  const posted = await request.post(`${server.url}/api/v1/ingest`, { headers: auth, data: { batch } });
  expect(posted.status()).toBe(207);
  const results = ((await posted.json()) as { results: { status: string }[] }).results;
  expect(results.map((r) => r.status)).toEqual(batch.map(() => "created"));

  const [fromPython, fromJsonl] = [await decisionsOf(request, auth, runs.sent), await decisionsOf(request, auth, runs.jsonl)];
  expect(fromPython.turns).toHaveLength(20);
  expect(withoutRunId(fromPython)).toBe(withoutRunId(fromJsonl));

  const summary = (await (await request.get(`${server.url}/api/v1/runs/${runs.sent}`, { headers: auth })).json()) as TRunSummary;
  expect(summary.task).toBeTruthy();
  await signInToDemo(page, `/runs/${runs.sent}`, server.url);
  await expect(page.getByRole("heading", { level: 1, name: summary.task! })).toBeVisible();
  await expect(page.getByRole("img", { name: /^Requests used per turn/ })).toBeVisible();
});
