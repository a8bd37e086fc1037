import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { hydrated } from "./support/hydrated";
import { signInToDemo } from "./support/sign-in";

const runsTable = (page: Page) => page.getByRole("table", { name: "Runs" });
const bodyRows = (page: Page) => runsTable(page).locator("tbody tr");
const header = (page: Page, name: string) => runsTable(page).getByRole("columnheader", { name: new RegExp(`^${name}`) });
/** The headers' text as written (innerText would be upper-cased by the CSS), arrows left out: "Drop rate % of reminders". */
const headerTexts = async (page: Page) =>
  (await runsTable(page).getByRole("columnheader").allTextContents()).map((t) => t.replace(/[↑↓]/g, "").replace(/\s+/g, " ").trim());
const hasHeader = async (page: Page, label: string) => (await headerTexts(page)).some((h) => h.startsWith(label));

/** The values of a column, by its header's label. */
async function column(page: Page, label: string): Promise<string[]> {
  const index = (await headerTexts(page)).findIndex((h) => h.startsWith(label));
  expect(index, label).toBeGreaterThanOrEqual(0);
  return bodyRows(page)
    .locator(`td:nth-child(${index + 1})`)
    .allInnerTexts();
}

const percent = (text: string) => (text.trim() === "—" ? null : Number(text.replace("%", "")));

test.describe("runs list power", () => {
  test.beforeEach(async ({ page }) => {
    test.setTimeout(90_000);
    // Each test starts from the default columns; a reload within it keeps its choice.
    await page.addInitScript(() => {
      if (window.sessionStorage.getItem("columns-reset")) return;
      window.localStorage.removeItem("cuescope.runs.columns");
      window.sessionStorage.setItem("columns-reset", "1");
    });
    await signInToDemo(page, "/runs");
    await expect(page.getByRole("heading", { level: 1, name: "Runs" })).toBeVisible({ timeout: 60_000 });
    await hydrated(page.getByRole("combobox", { name: "Agent" }));
  });

  test("`]` focuses the next run with problems at its first-problem link; Enter opens the run at that turn", async ({ page }) => {
    const flagged = runsTable(page).locator('tbody tr[data-jump="problem-run"]');
    expect(await flagged.count()).toBeGreaterThan(1);
    await page.locator("body").press("]");
    const firstLink = flagged.first().locator("[data-jump-focus]").first();
    await expect(firstLink).toBeFocused();
    const status = page.getByTestId("jump-problem-run");
    await expect(status).toHaveText(/^Run with problems 1 of \d+: \S+: .*(dropped reminder|finding|Reviewer violation)/);
    await page.keyboard.press("]");
    await expect(status).toHaveText(/^Run with problems 2 of /);
    await page.keyboard.press("[");
    await expect(firstLink).toBeFocused();
    // The link asks for the run's first drop (or finding); the page answers with that turn selected.
    const href = (await firstLink.getAttribute("href"))!;
    expect(href).toMatch(/^\/runs\/[^/?]+\?first=(drop|finding)$/);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/runs\/[^/?]+\?turn=\d+$/, { timeout: 30_000 });
    const turn = Number(new URL(page.url()).searchParams.get("turn"));
    await expect(page.getByRole("complementary", { name: "Selected turn" }).getByRole("heading", { level: 2 })).toHaveText(
      `Turn ${turn.toLocaleString("en-US")}`,
      { timeout: 30_000 },
    );
  });

  test("sort headers: drop rate and findings, each way, marked with aria-sort", async ({ page }) => {
    await header(page, "Drop rate").getByRole("link").click();
    await expect(page).toHaveURL(/\/runs\?sort=-dropRate$/);
    await expect(header(page, "Drop rate")).toHaveAttribute("aria-sort", "descending");
    await expect(header(page, "Started")).toHaveAttribute("aria-sort", "none");
    const down = (await column(page, "Drop rate")).map(percent).filter((v): v is number => v !== null);
    expect(down.length).toBeGreaterThan(2);
    expect(down).toEqual([...down].sort((a, b) => b - a));

    await header(page, "Drop rate").getByRole("link").click();
    await expect(page).toHaveURL(/\/runs\?sort=dropRate$/);
    await expect(header(page, "Drop rate")).toHaveAttribute("aria-sort", "ascending");
    const up = (await column(page, "Drop rate")).map(percent).filter((v): v is number => v !== null);
    expect(up).toEqual([...up].sort((a, b) => a - b));

    await header(page, "Findings").getByRole("link").click();
    await expect(page).toHaveURL(/sort=-findings$/);
    const findings = (await column(page, "Findings")).map((t) => Number(t.match(/^[\d,]+/)![0].replace(/,/g, "")));
    expect(findings).toEqual([...findings].sort((a, b) => b - a));
    await expect(page.getByRole("combobox", { name: "Sort" })).toHaveValue("-findings");
  });

  test("filters: has drops, has Reviewer violations and a finding code, in the URL", async ({ page }) => {
    const total = await bodyRows(page).count();
    await page.getByRole("checkbox", { name: "Has drops" }).check();
    await expect(page).toHaveURL(/hasDrops=1/);
    await expect(bodyRows(page).first()).toBeVisible();
    for (const text of await column(page, "Reminders")) expect(Number(text.match(/([\d,]+)\s*✕/)![1].replace(/,/g, ""))).toBeGreaterThan(0);
    const withDrops = await bodyRows(page).count();
    expect(withDrops).toBeLessThan(total);

    await page.getByRole("checkbox", { name: "Has drops" }).uncheck();
    await expect(page).toHaveURL(/\/runs$/);
    await page.getByRole("checkbox", { name: "Has Reviewer violations" }).check();
    await expect(page).toHaveURL(/hasViolations=1/);
    await expect(bodyRows(page).first()).toBeVisible();
    expect(await bodyRows(page).count()).toBeLessThanOrEqual(total);

    await page.getByRole("combobox", { name: "Finding code" }).selectOption("MISSING_REMINDER");
    await expect(page).toHaveURL(/hasViolations=1&finding=MISSING_REMINDER/);
    await page.reload();
    await expect(page.getByRole("combobox", { name: "Finding code" })).toHaveValue("MISSING_REMINDER");
    await expect(page.getByRole("checkbox", { name: "Has Reviewer violations" })).toBeChecked();
    await page.getByRole("link", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(/\/runs$/);
    await expect(bodyRows(page)).toHaveCount(total);
  });

  test("exports the current filter and sort as CSV and JSON downloads", async ({ page }) => {
    await page.getByRole("checkbox", { name: "Has drops" }).check();
    await expect(page).toHaveURL(/hasDrops=1/);
    await header(page, "Drop rate").getByRole("link").click();
    await expect(page).toHaveURL(/hasDrops=1&sort=-dropRate/);
    await expect(header(page, "Drop rate")).toHaveAttribute("aria-sort", "descending");
    const ids = await bodyRows(page).locator("td:first-child > span > span:first-child").allInnerTexts();

    const csvDownload = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const csv = await csvDownload;
    expect(csv.suggestedFilename()).toMatch(/^runs-.*\.csv$/);
    const text = await readFile((await csv.path())!, "utf8");
    const lines = text.split("\r\n").filter(Boolean);
    expect(lines[0]).toContain("dropped (reminders)");
    expect(lines[0]).toContain("drop_rate (% of reminders)");
    expect(lines.slice(1).map((line) => line.split(",")[0])).toEqual(ids);

    const jsonDownload = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export JSON" }).click();
    const json = JSON.parse(await readFile((await (await jsonDownload).path())!, "utf8")) as { runId: string }[];
    expect(json.map((r) => r.runId)).toEqual(ids);
  });

  test("saved views: save the current filters and sort, apply, rename and delete", async ({ page }) => {
    const name = `Drops ${Date.now()}`;
    await page.getByRole("checkbox", { name: "Has drops" }).check();
    await expect(page).toHaveURL(/hasDrops=1/);
    await page.getByRole("combobox", { name: "Sort" }).selectOption({ label: "Highest drop rate" });
    await expect(page).toHaveURL(/\/runs\?hasDrops=1&sort=-dropRate$/);

    await page.getByRole("button", { name: "Views" }).click();
    await page.getByRole("textbox", { name: "Save these filters and sort as" }).fill(name);
    await page.getByRole("button", { name: "Save view" }).click();
    const views = page.getByRole("list", { name: "Saved views" });
    await expect(views.getByRole("link", { name })).toBeVisible();
    await page.keyboard.press("Escape");

    await page.getByRole("link", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(/\/runs\?sort=-dropRate$/);
    await page.getByRole("button", { name: "Views" }).click();
    await views.getByRole("link", { name }).click();
    await expect(page).toHaveURL(/\/runs\?hasDrops=1&sort=-dropRate$/);
    await expect(page.getByRole("checkbox", { name: "Has drops" })).toBeChecked();

    await page.getByRole("button", { name: "Views" }).click();
    await views.getByRole("button", { name: `Rename ${name}` }).click();
    await page.getByRole("textbox", { name: `New name for ${name}` }).fill(`${name} renamed`);
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(views.getByRole("link", { name: `${name} renamed` })).toBeVisible();
    await views.getByRole("button", { name: `Delete ${name} renamed` }).click();
    await expect(views.getByRole("link", { name: `${name} renamed` })).toHaveCount(0);
  });

  test("column chooser: hide and show columns (the task stays), remembered after a reload; rows a page", async ({ page }) => {
    expect(await hasHeader(page, "Model")).toBe(true);
    expect(await hasHeader(page, "Violations")).toBe(false);
    await page.getByRole("button", { name: "Columns" }).click();
    const chooser = page.getByRole("group", { name: "Columns shown" });
    await expect(chooser.getByRole("checkbox", { name: /^Task/ })).toBeDisabled();
    await chooser.getByRole("checkbox", { name: /^Model/ }).uncheck();
    await chooser.getByRole("checkbox", { name: /^Violations/ }).check();
    await expect.poll(() => hasHeader(page, "Model")).toBe(false);
    expect(await hasHeader(page, "Violations")).toBe(true);
    expect((await headerTexts(page))[0]).toBe("Task");

    await page.reload();
    await expect(runsTable(page)).toBeVisible();
    await expect.poll(() => hasHeader(page, "Violations")).toBe(true);
    expect(await hasHeader(page, "Model")).toBe(false);

    await page.getByRole("button", { name: "Columns" }).click();
    await page.getByRole("button", { name: "Default columns" }).click();
    await expect.poll(() => hasHeader(page, "Model")).toBe(true);

    await page.getByRole("combobox", { name: "Rows a page" }).selectOption("100");
    await expect(page).toHaveURL(/\/runs\?limit=100$/);
    await page.getByRole("combobox", { name: "Rows a page" }).selectOption("50");
    await expect(page).toHaveURL(/\/runs$/);
  });
});
