import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import type { TFinding, TRunDecisions } from "@/lib/contracts";
import { formatBytes } from "@/lib/format";
import { signInToDemo } from "./support/sign-in";

/**
 * The turn inspector on the run page (`/runs/<id>?turn=N`), on the demo data. The turns are not
 * hard-coded: they are found through the API's rebuilt decisions (the first turn of the demo's
 * 2,000-turn run with a dropped reminder, and the first skipped turn of the run with anomalies).
 */
const DROPS_RUN = "etf-holdings-overlap";
const SKIPS_RUN = "etf-fees-voo-ivv-splg";

const demoKey = () => readFileSync(".cuescope/e2e/demo-key", "utf8").trim();

async function decisionsOf(request: APIRequestContext, runId: string): Promise<TRunDecisions> {
  const response = await request.get(`/api/v1/runs/${runId}/decisions`, { headers: { authorization: `Bearer ${demoKey()}` } });
  expect(response.ok()).toBe(true);
  return (await response.json()) as TRunDecisions;
}

const inspectorOf = (page: Page, turn: number) =>
  page.getByRole("complementary", { name: `Turn inspector: turn ${turn.toLocaleString("en-US")}` });

test("shows a dropped reminder with its bytes and free bytes, the fitting waterfall, agent vs rebuild, and moves with ← →", async ({
  page,
  request,
}) => {
  // A 2,000-turn run page, two full-height screenshots and a trip to the copy editor: over the default 30 s on a
  // busy 2-core CI machine (the ArrowRight step timed out there once per run, each passing on retry).
  test.setTimeout(60_000);
  const decisions = await decisionsOf(request, DROPS_RUN);
  const at = decisions.turns.findIndex(
    (t, i) => i > 0 && i < decisions.turns.length - 1 && t.reminders.some((r) => r.status === "dropped"),
  );
  expect(at, "the demo run has a turn with a dropped reminder").toBeGreaterThan(0);
  const turn = decisions.turns[at];
  const [previous, next] = [decisions.turns[at - 1].turn, decisions.turns[at + 1].turn];
  const dropped = turn.reminders.find((r) => r.status === "dropped")!;
  const needs = `needs ${formatBytes(dropped.bytes)}, ${formatBytes(dropped.freeBytes!)} free`;

  await signInToDemo(page, `/runs/${DROPS_RUN}?turn=${turn.turn}`);
  const inspector = inspectorOf(page, turn.turn);
  await expect(inspector).toBeVisible();
  await expect(inspector.getByRole("heading", { level: 2 })).toHaveText(`Turn ${turn.turn.toLocaleString("en-US")}`);

  // The candidate: shown as dropped, with its cost and the free bytes at that moment.
  const candidates = inspector.getByRole("region", { name: "Candidates" });
  const candidate = candidates.getByRole("listitem").filter({ hasText: dropped.text });
  await expect(candidate).toContainText("dropped");
  await expect(candidate).toContainText(formatBytes(dropped.bytes));
  await expect(candidate).toContainText(needs);

  // The fitting waterfall: required bytes of the final request, then each reminder in order.
  const fitting = inspector.getByRole("region", { name: "Fitting" });
  await expect(fitting).toBeVisible();
  await expect(fitting).toContainText(formatBytes(turn.requiredBytes));
  const steps = fitting.getByRole("list", { name: "Fitting steps" }).getByRole("listitem");
  await expect(steps).toHaveCount(turn.reminders.length + 1);
  await expect(steps.filter({ hasText: needs }).first()).toContainText("dropped");

  // What the agent recorded next to what the rebuild decided.
  const table = inspector.getByRole("table", { name: "Agent recorded vs rebuild" });
  await expect(table).toBeVisible();
  const pair = dropped.subject === null ? dropped.key : `${dropped.key} · ${dropped.subject}`;
  const row = table.getByRole("row").filter({ has: page.getByRole("rowheader").filter({ hasText: pair }) });
  await expect(row.first()).toContainText("dropped");
  await expect(inspector.getByRole("region", { name: "Submission" })).toBeVisible();
  await expect(inspector.getByRole("region", { name: "Reviewer · notifications · actions" })).toBeVisible();

  // The run page's side column scrolls; a tall viewport lets the whole inspector be captured.
  await page.screenshot({ path: "test-results/turn-inspector-page.png" });
  await page.setViewportSize({ width: 1366, height: 3200 });
  await inspector.screenshot({ path: "test-results/turn-inspector.png" });
  await page.setViewportSize({ width: 1366, height: 900 });

  // ← → move between the turns that exist; the URL's turn and the content follow.
  await page.locator("body").click({ position: { x: 1, y: 1 } });
  await page.keyboard.press("ArrowRight");
  await expect(page).toHaveURL(new RegExp(`[?&]turn=${next}(&|$)`));
  await expect(inspectorOf(page, next).getByRole("heading", { level: 2 })).toHaveText(`Turn ${next.toLocaleString("en-US")}`);
  await expect(inspectorOf(page, next).getByRole("button", { name: /^Previous turn/ })).toBeEnabled();

  await page.keyboard.press("ArrowLeft");
  await expect(page).toHaveURL(new RegExp(`[?&]turn=${turn.turn}(&|$)`));
  await expect(inspectorOf(page, turn.turn).getByRole("region", { name: "Candidates" })).toContainText(needs);

  await inspectorOf(page, turn.turn)
    .getByRole("button", { name: /^Previous turn/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`[?&]turn=${previous}(&|$)`));
  await expect(inspectorOf(page, previous)).toBeVisible();

  // Other wording can be tried on this very turn: the copy editor previews on it.
  await page.keyboard.press("ArrowRight");
  await inspectorOf(page, turn.turn).getByRole("link", { name: "Try other wording on this turn →" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Reminder copy" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("spinbutton", { name: "Preview turn number" })).toHaveValue(String(turn.turn));
  await expect(page.getByRole("combobox", { name: "Preview run" })).toHaveValue(DROPS_RUN);
  await expect(page.getByRole("region", { name: "Preview turn" }).getByRole("table")).toContainText(dropped.key);
});

test("a skipped turn says why and still shows its events", async ({ page, request }) => {
  const decisions = await decisionsOf(request, SKIPS_RUN);
  const skipped = decisions.findings.find((f: TFinding) => f.code === "INCOMPLETE_TURN" && f.turn !== null);
  expect(skipped, "the demo run with anomalies has an incomplete turn").toBeTruthy();
  const turn = skipped!.turn!;

  await signInToDemo(page, `/runs/${SKIPS_RUN}?turn=${turn}`);
  const inspector = inspectorOf(page, turn);
  await expect(inspector).toContainText("Skipped turn");
  await expect(inspector).toContainText("INCOMPLETE_TURN");
  await expect(inspector.getByRole("region", { name: "Findings" })).toContainText("Incomplete turn");
  await expect(inspector.getByText(/All events of the turn/)).toBeVisible();
  await expect(inspector.getByRole("region", { name: "Candidates" })).toHaveCount(0);
  await page.setViewportSize({ width: 1366, height: 3200 });
  await inspector.screenshot({ path: "test-results/turn-inspector-skipped.png" });
  await page.setViewportSize({ width: 1366, height: 900 });

  // Typing in a field does not move the inspector.
  await page.evaluate(() => {
    const input = document.createElement("input");
    input.id = "e2e-typing";
    document.body.prepend(input);
  });
  await page.locator("#e2e-typing").focus();
  await page.keyboard.press("ArrowRight");
  await page.waitForTimeout(500);
  await expect(page).toHaveURL(new RegExp(`[?&]turn=${turn}(&|$)`));
});

test("a turn where the agent's record differs highlights the difference and explains the finding", async ({ page, request }) => {
  const decisions = await decisionsOf(request, SKIPS_RUN);
  const mismatch = decisions.findings.find((f: TFinding) => f.code === "STAGE_MISMATCH" && f.turn !== null);
  expect(mismatch, "the demo run with anomalies has a stage mismatch").toBeTruthy();
  const turn = mismatch!.turn!;

  await signInToDemo(page, `/runs/${SKIPS_RUN}?turn=${turn}`);
  const inspector = inspectorOf(page, turn);
  const table = inspector.getByRole("table", { name: "Agent recorded vs rebuild" });
  await expect(table.getByRole("row").filter({ hasText: "stage differs" })).not.toHaveCount(0);
  const findings = inspector.getByRole("region", { name: "Findings" });
  await expect(findings).toContainText("STAGE_MISMATCH");
  await expect(findings).toContainText("Stage mismatch");
  await expect(findings).toContainText(mismatch!.detail);
  await page.setViewportSize({ width: 1366, height: 3200 });
  await inspector.screenshot({ path: "test-results/turn-inspector-mismatch.png" });
});
