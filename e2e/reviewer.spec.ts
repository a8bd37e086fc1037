import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { REVIEWER_FINDING_CODES } from "@/lib/contracts";
import { demoReviewer } from "./support/demo-reviewer";
import { hydrated } from "./support/hydrated";
import { signInToDemo } from "./support/sign-in";

const REVIEWER_CODES: readonly string[] = REVIEWER_FINDING_CODES;
const CSV_HEADER =
  "run_id,task,agent,model,turn,checkpoint,candidate_id,source,recorded_admission,recorded_reasons,rule_verdict,rule_reasons,requests_left,min_requests_left,review_in_progress,rebuilt_admission,dispatch_ids,completed_turns,verdicts,cancelled_reason,suggestion_stage,suggestion_status,findings,review_key,review_verdict,review_comment,reviewed_by,reviewed_at,assignee";

const table = (page: Page) => page.getByRole("table", { name: "Reviewer candidates" });
const candidateRows = (page: Page) => table(page).locator("tbody tr[data-candidate]");
const funnel = (page: Page) => page.getByRole("region", { name: "Funnel" });
const stageCount = async (page: Page, label: string) => {
  const text = await funnel(page).locator(`li[aria-label^="${label}: "]`).getAttribute("aria-label");
  return Number(text!.split(": ")[1].replace(/,/g, ""));
};
const csvDataLines = (text: string) => text.split("\r\n").filter((line, i) => i > 0 && line !== "");

// The demo project's expected counts, computed from the demo generator and the pure core (see demoReviewer).
const demo = () => demoReviewer();

test.describe("Reviewer audit", () => {
  test.beforeEach(async ({ page }) => {
    // The demo runs (the largest has 2,000 turns) are rebuilt when npm start loads them; the limits leave room for a slow machine.
    test.setTimeout(120_000);
    await signInToDemo(page, "/reviewer");
    await expect(page.getByRole("heading", { level: 1, name: "Reviewer audit" })).toBeVisible({ timeout: 90_000 });
  });

  test("shows the funnel, the candidates and the reminder apart from the admission", async ({ page }, testInfo) => {
    // The funnel counts, with labels.
    await expect(funnel(page)).toBeVisible();
    const { funnel: expected } = demo();
    const candidates = await stageCount(page, "Candidates");
    expect(candidates).toBe(expected.candidates.total);
    expect(await stageCount(page, "Admission granted")).toBe(expected.admissions.granted);
    expect(await stageCount(page, "Dispatched")).toBe(expected.dispatches.total);
    expect(await stageCount(page, "Completed")).toBe(expected.dispatches.completed);
    await expect(funnel(page)).toContainText("review in progress");
    await expect(funnel(page)).toContainText("against the rule");
    await expect(funnel(page)).toContainText("Cancelled");

    // Every Reviewer finding code of the demo data is counted, with its plain rule.
    const violations = page.getByRole("region", { name: "Violations by code" });
    for (const code of REVIEWER_CODES) await expect(violations.locator(`[data-finding="${code}"]`)).toBeVisible();
    await expect(violations).toContainText("a delivered reminder is never a licence to dispatch");

    // A page of 50 rows; the reminder column group says it is not an admission.
    await expect(candidateRows(page)).toHaveCount(50);
    await expect(table(page).getByRole("columnheader", { name: /Reminder.*not an admission/ })).toBeVisible();
    await expect(candidateRows(page).first().locator("td").nth(8)).toContainText(/delivered|dropped|failed|uncertain|pending|none/);
    await expect(page.getByText(`First page: 50 candidates of ${candidates.toLocaleString("en-US")}`)).toBeVisible();

    // Next page and back.
    await page.getByRole("link", { name: "Next page →" }).click();
    await expect(page).toHaveURL(/cursor=/);
    await expect(page.getByText(/A later page: 50 candidates/)).toBeVisible();
    await page.getByRole("link", { name: "← First page" }).click();
    await expect(page).toHaveURL(/\/reviewer$/);

    // Reads well at 1280 px: nothing scrolls sideways.
    await page.setViewportSize({ width: 1280, height: 900 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const wrap = table(page).locator("xpath=..");
    expect(await wrap.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);

    await page.screenshot({ path: path.join(testInfo.project.outputDir, "reviewer-all.png") });

    // Violations only, with one explanation open, for the screenshot.
    await page.getByRole("checkbox", { name: "Only violations" }).check();
    await expect(page).toHaveURL(/\/reviewer\?violations=1$/);
    await expect(candidateRows(page)).toHaveCount(demo().violations);
    await candidateRows(page)
      .filter({ has: page.locator('[data-finding="ADMISSION_RULE_MISMATCH"]') })
      .first()
      .getByRole("button", { name: /Why/ })
      .click();
    await expect(table(page)).toContainText("R13 on turn");
    await page.screenshot({ path: path.join(testInfo.project.outputDir, "reviewer.png"), fullPage: true });
  });

  test("only violations: the URL carries it, every row shows a finding code, and rows lead to the run page", async ({ page }) => {
    // A filter change keeps the page on screen (dimmed, "Updating…") instead of the loading skeleton.
    await page.evaluate(() => {
      const w = window as unknown as { sawSkeleton: boolean };
      w.sawSkeleton = false;
      new MutationObserver(() => {
        if (document.querySelector('[aria-label="Loading the funnel"]')) w.sawSkeleton = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByRole("checkbox", { name: "Only violations" }).check();
    await expect(page).toHaveURL(/\/reviewer\?violations=1$/);
    await expect(candidateRows(page)).toHaveCount(demo().violations);
    expect(await stageCount(page, "Candidates")).toBe(demo().violations);
    expect(await page.evaluate(() => (window as unknown as { sawSkeleton: boolean }).sawSkeleton)).toBe(false);
    await expect(page.getByRole("checkbox", { name: "Only violations" })).toBeChecked();
    const rows = candidateRows(page);
    await expect(rows.first()).toBeVisible();
    const count = await rows.count();
    expect(count).toBe(demo().violations);
    for (let i = 0; i < count; i++) {
      const codes = await rows
        .nth(i)
        .locator("[data-finding]")
        .evaluateAll((els) => els.map((el) => el.getAttribute("data-finding")));
      expect(codes.length).toBeGreaterThan(0);
      for (const code of codes) expect(REVIEWER_CODES).toContain(code);
      // The plain explanation rides along (not colour alone).
      await expect(rows.nth(i).locator("[data-finding]").first()).toHaveAttribute("title", /R1[23]/);
    }

    // Shared link: a reload keeps the filter.
    await page.reload();
    await expect(page.getByRole("checkbox", { name: "Only violations" })).toBeChecked();

    const row = rows.filter({ has: page.locator('[data-finding="DISPATCH_WITHOUT_ADMISSION"]') }).first();
    const turnLink = row.getByRole("link", { name: /^Open .+ at turn \d+$/ });
    const [, runId, turn] = (await turnLink.getAttribute("aria-label"))!.match(/^Open (.+) at turn ([\d,]+)$/)!;
    await turnLink.click();
    await expect(page).toHaveURL(new RegExp(`/runs/${runId}\\?turn=${turn.replace(/,/g, "")}$`));
  });

  test("exports the filtered candidates as CSV and JSON, the same rows as the page", async ({ page }) => {
    await hydrated(page.getByRole("combobox", { name: "Agent" }));
    await page.getByRole("checkbox", { name: "Only violations" }).check();
    await expect(page).toHaveURL(/violations=1/);
    await expect(candidateRows(page).first()).toBeVisible();
    const tableRows = await candidateRows(page).count();

    const csvHref = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
    expect(csvHref).toBe("/api/v1/reviewer/candidates/export?format=csv&violations=1");
    await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute("download", "");
    const csv = await page.request.get(csvHref!);
    expect(csv.status()).toBe(200);
    expect(csv.headers()["content-type"]).toMatch(/text\/csv/);
    expect(csv.headers()["content-disposition"]).toMatch(/attachment; filename="reviewer-candidates-.*\.csv"/);
    const text = await csv.text();
    expect(text.split("\r\n")[0]).toBe(CSV_HEADER);
    expect(csvDataLines(text)).toHaveLength(tableRows);

    const json = await page.request.get((await page.getByRole("link", { name: "Export JSON" }).getAttribute("href"))!);
    const rows = (await json.json()) as { findings: string[] }[];
    expect(rows).toHaveLength(tableRows);
    for (const row of rows) expect(row.findings.length).toBeGreaterThan(0);

    // Without filters: every candidate of every page, as many as the funnel counts.
    await page.getByRole("checkbox", { name: "Only violations" }).uncheck();
    await expect(page).toHaveURL(/\/reviewer$/);
    await expect(candidateRows(page)).toHaveCount(50);
    const all = await page.request.get((await page.getByRole("link", { name: "Export CSV" }).getAttribute("href"))!);
    expect(csvDataLines(await all.text())).toHaveLength(demo().funnel.candidates.total);
  });

  test("filters by agent and time range; a bad link says what is wrong", async ({ page }) => {
    await (await hydrated(page.getByRole("combobox", { name: "Agent" }))).selectOption("etf-lite-agent");
    await expect(page).toHaveURL(/agent=etf-lite-agent/);
    await expect(candidateRows(page).first()).toBeVisible();
    for (const id of await candidateRows(page).locator("td:first-child a").first().allInnerTexts()) expect(id).not.toBe("");
    const lite = demoReviewer((run) => run.agent === "etf-lite-agent").funnel.candidates.total;
    await expect.poll(() => stageCount(page, "Candidates")).toBe(lite);

    await page.getByRole("combobox", { name: "Runs started" }).selectOption("24h");
    await expect(page).toHaveURL(/agent=etf-lite-agent&range=24h/);
    const recent = demoReviewer((run) => run.agent === "etf-lite-agent" && run.hoursAgo < 24).funnel.candidates.total;
    expect(recent).toBeLessThan(lite);
    await expect.poll(() => stageCount(page, "Candidates")).toBe(recent);

    await page.getByRole("link", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(/\/reviewer$/);

    await page.goto("/reviewer?range=1y&violations=maybe");
    const alert = page.getByRole("alert").filter({ hasText: "This link has filter values" });
    await expect(alert).toContainText("This link has filter values the Reviewer audit cannot use");
    await expect(alert).toContainText("range");
    await expect(alert).toContainText("violations");
    await alert.getByRole("link", { name: "Drop the bad values" }).click();
    await expect(page).toHaveURL(/\/reviewer$/);
    await expect(funnel(page)).toBeVisible();
  });
});
