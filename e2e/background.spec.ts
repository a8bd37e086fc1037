import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { signInToDemo } from "./support/sign-in";
import { E2E_DIR } from "./support/targets";

/**
 * Rebuilds run in the background after ingest (the e2e server waits 4 s before one starts): a run
 * page opened meanwhile says its figures are behind, keeps polling, and draws the charts once the
 * rebuild has caught up — with no reload.
 */
test("a run page opened before its rebuild says so, then shows the rebuilt run without a reload", async ({ page, request }) => {
  const key = readFileSync(join(E2E_DIR, "demo-key"), "utf8").trim();
  const runId = `background-${Date.now()}`;
  const { events } = generateEtfRun({ runId, seed: 5, turns: 40, anomalies: true });
  const ingest = await request.post("/api/v1/ingest", {
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    data: { batch: events },
  });
  expect(ingest.status()).toBe(207);

  await signInToDemo(page, `/runs/${runId}`);
  await expect(page.getByTestId("run-freshness")).toHaveText(`Not rebuilt yet: the rebuild of its ${events.length} events is queued.`);

  // The rebuild lands; the polled page follows.
  await expect(page.getByTestId("run-freshness")).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByText("40 turns", { exact: false }).first()).toBeVisible();
  await expect(page.getByRole("region", { name: /^Requests\b/ })).toBeVisible();

  // The runs list shows it as current too.
  const task = events[0].type === "run.started" ? events[0].body.task : "";
  await page.goto(`/runs?q=${encodeURIComponent(task)}`);
  const row = page.getByRole("row").filter({ hasText: runId });
  await expect(row).toBeVisible();
  await expect(row.getByTestId("run-updating")).toHaveCount(0);
});
