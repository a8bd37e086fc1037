import { expect, test } from "@playwright/test";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { startOwnServer, type OwnServer } from "./support/own-server";
import { signInToDemo } from "./support/sign-in";
import { E2E_PORT } from "./support/targets";

/**
 * Rebuilds run in the background after ingest. On a server of its own (so the shared demo project
 * keeps its 7 runs), whose rebuilds wait 4 s after an ingest: a run page opened meanwhile says its
 * figures are behind, keeps polling, and draws the charts once the rebuild has caught up — with no
 * reload.
 */
const PORT = E2E_PORT + 3;
let server: OwnServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startOwnServer({
    port: PORT,
    host: "127.0.0.1",
    dir: ".cuescope/e2e-background",
    env: { CUESCOPE_REBUILD_DELAY_MS: "4000" },
  });
});

test.afterAll(async () => {
  await server?.stop();
});

test("a run page opened before its rebuild says so, then shows the rebuilt run without a reload", async ({ page, request }) => {
  const runId = `background-${Date.now()}`;
  const { events } = generateEtfRun({ runId, seed: 5, turns: 40, anomalies: true });
  const ingest = await request.post(`${server.url}/api/v1/ingest`, {
    headers: { authorization: `Bearer ${server.demoKey}`, "content-type": "application/json" },
    data: { batch: events },
  });
  expect(ingest.status()).toBe(207);

  await signInToDemo(page, `/runs/${runId}`, server.url);
  await expect(page.getByTestId("run-freshness")).toHaveText(`Not rebuilt yet: the rebuild of its ${events.length} events is queued.`);

  // The rebuild lands; the polled page follows.
  await expect(page.getByTestId("run-freshness")).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByText("40 turns", { exact: false }).first()).toBeVisible();
  await expect(page.getByRole("region", { name: /^Requests\b/ })).toBeVisible();

  // The runs list shows it as current too.
  const task = events[0].type === "run.started" ? events[0].body.task : "";
  await page.goto(`${server.url}/runs?q=${encodeURIComponent(task)}`);
  const row = page.getByRole("row").filter({ hasText: runId });
  await expect(row).toBeVisible();
  await expect(row.getByTestId("run-updating")).toHaveCount(0);
});
