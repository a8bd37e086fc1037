import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

/** The HTTP API on the production server, as an agent and a user's script use it. */
const demoKey = () => readFileSync(".cuescope/e2e/demo-key", "utf8").trim();

test("an agent's batch is stored once, and the run is rebuilt and listed", async ({ request }) => {
  const headers = { authorization: `Bearer ${demoKey()}` };
  const runId = `e2e-${Date.now()}`;
  const batch = [
    {
      id: `${runId}-0`,
      runId,
      type: "run.started",
      ts: "2026-11-29T10:00:00Z",
      body: { task: "E2E: compare SPY and VOO fees", agent: "e2e-agent", policy: { requests: { limit: 10, stages: [0.5] } } },
    },
    { id: `${runId}-1`, runId, type: "meter.requests", ts: "2026-11-29T10:00:01Z", turn: 0, body: { used: 5 } },
    { id: `${runId}-2`, runId, type: "request.final", ts: "2026-11-29T10:00:02Z", turn: 0, body: { requiredBytes: 1200 } },
    { id: `${runId}-3`, runId, type: "request.submitted", ts: "2026-11-29T10:00:03Z", turn: 0, body: { outcome: "ok" } },
    { id: `${runId}-4`, runId, type: "meter.time", ts: "2026-11-29T10:00:04Z", turn: "zero", body: { elapsedMs: 1 } },
  ];
  const first = await request.post("/api/v1/ingest", { headers, data: { batch } });
  expect(first.status()).toBe(207);
  const answer = await first.json();
  expect(answer.results.map((r: { status: string }) => r.status)).toEqual(["created", "created", "created", "created", "error"]);
  expect(answer.results[4].error).toEqual({ path: "turn", message: 'expected integer >= 0, got "zero"' });

  const again = await (await request.post("/api/v1/ingest", { headers, data: { batch: batch.slice(0, 4) } })).json();
  expect(again.summary).toEqual({ created: 0, duplicate: 4, error: 0 });

  const decisions = await (await request.get(`/api/v1/runs/${runId}/decisions`, { headers })).json();
  expect(decisions.turns[0].reminders[0]).toMatchObject({ key: "requests", stage: 1, status: "delivered" });

  const list = await (await request.get(`/api/v1/runs?agent=e2e-agent`, { headers })).json();
  expect(list.runs.map((r: { runId: string }) => r.runId)).toContain(runId);
});

test("the demo data is served, and bad requests get JSON errors, never a 500", async ({ request }) => {
  const headers = { authorization: `Bearer ${demoKey()}` };
  const runs = await (await request.get("/api/v1/runs?limit=200", { headers })).json();
  expect(runs.runs.length).toBeGreaterThanOrEqual(7);
  expect(runs.runs.every((r: { rebuildError: string | null }) => r.rebuildError === null)).toBe(true);

  const noKey = await request.post("/api/v1/ingest", { data: { batch: [] } });
  expect(noKey.status()).toBe(401);
  const wrongType = await request.post("/api/v1/ingest", { headers: { ...headers, "content-type": "text/plain" }, data: "x" });
  expect(wrongType.status()).toBe(415);
  const notJson = await request.post("/api/v1/ingest", {
    headers: { ...headers, "content-type": "application/json" },
    data: Buffer.from("{oops"),
  });
  expect(notJson.status()).toBe(400);
  expect((await notJson.json()).error.message).toMatch(/not valid JSON/);
});
