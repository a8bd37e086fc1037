import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { hydrated } from "./support/hydrated";
import { signInToDemo } from "./support/sign-in";

const LIVE_TASK = "Compare sector weights of VOO and RSP over the last year";
const LONGEST_TASK = "Measure holdings overlap between QQQ, VGT and XLK";
const SHORTEST_TASK = "Quick comparison: BND vs AGG yield and duration";

/** The demo data set's runs (lib/demo/demo-set.ts). Other specs may add runs of their own to the project. */
const DEMO_RUN_IDS = [
  "etf-fees-voo-ivv-splg",
  "etf-holdings-overlap",
  "etf-expense-ratio-check",
  "etf-dividend-history",
  "etf-tracking-error",
  "etf-quick-compare",
  "etf-sector-weights",
];

const runsTable = (page: Page) => page.getByRole("table", { name: "Runs" });
const bodyRows = (page: Page) => runsTable(page).locator("tbody tr");
const taskLinks = (page: Page) => runsTable(page).locator("tbody tr td:first-child a");

async function expectAllDemoRuns(page: Page): Promise<void> {
  for (const runId of DEMO_RUN_IDS) await expect(bodyRows(page).filter({ hasText: runId })).toHaveCount(1);
}

test.describe("runs list", () => {
  test.beforeEach(async ({ page }) => {
    // The first visit rebuilds every demo run's decisions on the server (the largest has 2,000 turns).
    test.setTimeout(90_000);
    await signInToDemo(page, "/runs");
    await expect(page.getByRole("heading", { level: 1, name: "Runs" })).toBeVisible({ timeout: 60_000 });
  });

  test("lists the 7 demo runs, each meter in its own unit", async ({ page }, testInfo) => {
    await expectAllDemoRuns(page);

    // Units are labelled in the headers.
    const headers = runsTable(page).getByRole("columnheader");
    await expect(headers.filter({ hasText: "Requests" })).toContainText("used/usable");
    await expect(headers.filter({ hasText: "Time" })).toContainText("min");
    await expect(headers.filter({ hasText: /^Reminders/ })).toContainText("delivered");
    await expect(headers.filter({ hasText: /^Drop rate/ })).toContainText("% of reminders");

    // The live run is marked with a shape and a word.
    const live = bodyRows(page).filter({ hasText: LIVE_TASK });
    await expect(live.getByText("live", { exact: true })).toBeVisible();
    await expect(live).toContainText("◉");

    // Requests used of usable with the delivery reserve; time in minutes; reminders with their marks.
    const cells = (column: number) => bodyRows(page).locator(`td:nth-child(${column})`);
    for (const text of await cells(6).allInnerTexts()) expect(text).toMatch(/^[\d,]+\/[\d,]+(\s+\(\+[\d,]+ reserve\))?$|^—/);
    for (const text of await cells(7).allInnerTexts()) expect(text).toMatch(/^[\d,.]+\/[\d,.]+ min$|^—/);
    await expect(cells(8).first()).toContainText("●");
    await expect(cells(8).first()).toContainText("✕");
    // Findings carry their worst severity as a word, not only a colour.
    // Drop rate in percent of the run's reminders.
    for (const text of await cells(9).allInnerTexts()) expect(text).toMatch(/^[\d.]+%$|^—/);
    await expect(cells(10).filter({ hasText: "violation" }).first()).toBeVisible();
    // Started: relative, with the absolute instant in the title.
    await expect(cells(11).first().locator("time")).toHaveAttribute("title", /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);

    // It must read well at 1280 px: nothing scrolls sideways.
    await page.setViewportSize({ width: 1280, height: 720 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const wrap = runsTable(page).locator("xpath=..");
    expect(await wrap.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(testInfo.project.outputDir, "runs-list.png"), fullPage: true });
  });

  test("filters by status, searches, sorts; the URL carries it all", async ({ page }) => {
    await expectAllDemoRuns(page);
    const total = await bodyRows(page).count();

    await hydrated(page.getByRole("combobox", { name: "Agent" }));
    await page.getByRole("combobox", { name: "Status" }).selectOption("live");
    await expect(page).toHaveURL(/\/runs\?status=live$/);
    await expect(bodyRows(page).filter({ hasText: LIVE_TASK })).toHaveCount(1);
    const expectOnlyLive = async () => {
      const statuses = await runsTable(page).locator("tbody tr td:nth-child(4)").allInnerTexts();
      expect(statuses.every((text) => /\blive$/.test(text.trim()))).toBe(true);
      await expect(bodyRows(page).filter({ hasText: "etf-holdings-overlap" })).toHaveCount(0);
    };
    await expectOnlyLive();

    await page.reload();
    await expect(page.getByRole("combobox", { name: "Status" })).toHaveValue("live");
    await expect(bodyRows(page).filter({ hasText: LIVE_TASK })).toHaveCount(1);
    await expectOnlyLive();

    // The what-if replay of exactly these runs is one click away, with the same filters.
    await page.getByRole("link", { name: "What-if replay of these runs →" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "What-if replay" })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("form", { name: "Replay settings" }).getByRole("combobox", { name: "Status" })).toHaveValue("live");
    await page.goBack();
    await expect(page.getByRole("combobox", { name: "Status" })).toHaveValue("live");

    await page.getByRole("link", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(/\/runs$/);
    await expect(bodyRows(page)).toHaveCount(total);

    // Debounced search in the task text (case-insensitive).
    await page.getByRole("searchbox", { name: "Search runs" }).fill("voo");
    await expect(page).toHaveURL(/\/runs\?q=voo$/);
    await expect(bodyRows(page).filter({ hasText: "etf-fees-voo-ivv-splg" })).toHaveCount(1);
    await expect(bodyRows(page).filter({ hasText: "etf-quick-compare" })).toHaveCount(0);
    for (const task of await taskLinks(page).allInnerTexts()) expect(task).toContain("VOO");

    await page.getByRole("searchbox", { name: "Search runs" }).fill("");
    await expect(page).toHaveURL(/\/runs$/);
    await expect(bodyRows(page)).toHaveCount(total);

    await page.getByRole("combobox", { name: "Sort" }).selectOption({ label: "Most turns" });
    await expect(page).toHaveURL(/\/runs\?sort=-turns$/);
    await expect(taskLinks(page).first()).toHaveText(LONGEST_TASK);

    // Filters and sort combine, and survive a reload.
    await page.getByRole("combobox", { name: "Agent" }).selectOption("etf-lite-agent");
    await expect(page).toHaveURL(/agent=etf-lite-agent/);
    await expect(taskLinks(page)).toHaveCount(3);
    await expect(taskLinks(page).first()).toHaveText("Check the latest expense ratios of VTI, ITOT and SCHB");
    await page.getByRole("combobox", { name: "Sort" }).selectOption({ label: "Fewest turns" });
    await expect(page).toHaveURL(/sort=turns/);
    await expect(taskLinks(page).first()).toHaveText(SHORTEST_TASK);
    await page.getByRole("combobox", { name: "Started" }).selectOption({ label: "Last 24 hours" });
    await expect(page).toHaveURL(/range=24h/);
    await expect(taskLinks(page)).toHaveText(["Check the latest expense ratios of VTI, ITOT and SCHB"]);

    await page.reload();
    await expect(page.getByRole("combobox", { name: "Sort" })).toHaveValue("turns");
    await expect(page.getByRole("combobox", { name: "Agent" })).toHaveValue("etf-lite-agent");
    await expect(page.getByRole("combobox", { name: "Started" })).toHaveValue("24h");
    await expect(taskLinks(page)).toHaveText(["Check the latest expense ratios of VTI, ITOT and SCHB"]);
  });

  test("a run's task leads to its page", async ({ page }) => {
    const link = page.getByRole("link", { name: LONGEST_TASK });
    await link.click();
    await expect(page).toHaveURL(/\/runs\/etf-holdings-overlap$/);
  });

  test("a filter that matches nothing says so and offers to clear it, without first-run onboarding", async ({ page }, testInfo) => {
    await page.goto("/runs?q=no-such-task-anywhere");
    await expect(page.getByRole("heading", { name: "No runs match these filters" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Send the first events" })).toHaveCount(0);
    // A browser session never hands out an API key, not even the demo project's (issue #10).
    await expect(page.locator("body")).not.toContainText("Bearer cs_");
    await page.screenshot({ path: path.join(testInfo.project.outputDir, "runs-list-empty.png"), fullPage: true });
    await page.getByRole("link", { name: "clear the filters" }).click();
    await expect(page).toHaveURL(/\/runs$/);
    await expectAllDemoRuns(page);
  });

  test("bad filter values in the URL get a clear message, not a crash", async ({ page }) => {
    await page.goto("/runs?status=sleeping&range=1y");
    const alert = page.getByRole("alert").filter({ hasText: "cannot use" });
    await expect(alert).toContainText("status");
    await expect(alert).toContainText("range");
    await alert.getByRole("link", { name: "Drop the bad values" }).click();
    await expect(page).toHaveURL(/\/runs$/);
    await expectAllDemoRuns(page);
  });
});
