import { expect, test, type Page } from "@playwright/test";
import { hydrated } from "./support/hydrated";
import { signInToDemo } from "./support/sign-in";

const table = (page: Page) => page.getByRole("table", { name: "Reviewer candidates" });
const candidateRows = (page: Page) => table(page).locator("tbody tr[data-candidate]");
const funnel = (page: Page) => page.getByRole("region", { name: "Funnel" });
const stageCount = async (page: Page, label: string) => {
  const text = await funnel(page).locator(`li[aria-label^="${label}: "]`).getAttribute("aria-label");
  return Number(text!.split(": ")[1].replace(/,/g, ""));
};

test.describe("Reviewer audit power", () => {
  test.beforeEach(async ({ page }) => {
    test.setTimeout(120_000);
    await signInToDemo(page, "/reviewer");
    await expect(page.getByRole("heading", { level: 1, name: "Reviewer audit" })).toBeVisible({ timeout: 90_000 });
    await hydrated(page.getByRole("combobox", { name: "Agent" }));
  });

  test("a code's count filters the audit to that code; the chip leads back", async ({ page }) => {
    const link = page.getByRole("link", { name: /^\d+ DISPATCH_WITHOUT_ADMISSION — show only these$/ });
    const count = Number((await link.getAttribute("aria-label"))!.split(" ")[0]);
    await link.click();
    await expect(page).toHaveURL(/\/reviewer\?violations=1&code=DISPATCH_WITHOUT_ADMISSION$/);
    await expect(candidateRows(page)).toHaveCount(count);
    for (const row of await candidateRows(page).all()) {
      await expect(row.locator('[data-finding="DISPATCH_WITHOUT_ADMISSION"]').first()).toBeVisible();
    }
    await page.getByRole("link", { name: "Show every code, not only DISPATCH_WITHOUT_ADMISSION" }).click();
    await expect(page).toHaveURL(/\/reviewer\?violations=1$/);
  });

  test("the Finding header sorts the most violations first; `]` then focuses the first violation, `[` steps back", async ({ page }) => {
    await table(page)
      .getByRole("columnheader", { name: /^Finding/ })
      .getByRole("link")
      .click();
    await expect(page).toHaveURL(/\/reviewer\?sort=violations$/);
    await expect(table(page).getByRole("columnheader", { name: /^Finding/ })).toHaveAttribute("aria-sort", "descending");
    await expect(page.getByText("most violations first, then newest run, then by turn")).toBeVisible();
    // The first rows are the flagged ones.
    await expect(candidateRows(page).first()).toHaveAttribute("data-jump", "violation");

    await page.locator("body").press("]");
    const first = candidateRows(page).first();
    await expect(first.getByRole("link").first()).toBeFocused();
    const status = page.getByTestId("jump-violation");
    await expect(status).toHaveText(/^Violation 1 of \d+: .+, turn [\d,]+, [A-Z_]+/);
    await page.keyboard.press("]");
    await expect(status).toHaveText(/^Violation 2 of /);
    await page.keyboard.press("[");
    await expect(status).toHaveText(/^Violation 1 of /);
    // Enter opens the run at that candidate's turn.
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/runs\/[^/?]+\?turn=\d+$/);
    await page.goBack();

    // The Run header goes back to run order: oldest first, then newest.
    await table(page).getByRole("columnheader", { name: /^Run/ }).getByRole("link").click();
    await expect(page).toHaveURL(/\/reviewer$/);
    await table(page).getByRole("columnheader", { name: /^Run/ }).getByRole("link").click();
    await expect(page).toHaveURL(/\/reviewer\?sort=oldest$/);
    await expect(table(page).getByRole("columnheader", { name: /^Run/ })).toHaveAttribute("aria-sort", "ascending");
  });

  test("Rows a page shows more candidates a page, kept in the URL", async ({ page }) => {
    const total = await stageCount(page, "Candidates");
    await expect(candidateRows(page)).toHaveCount(Math.min(total, 50));
    await page.getByRole("combobox", { name: "Rows a page" }).selectOption("200");
    await expect(page).toHaveURL(/\/reviewer\?limit=200$/);
    await expect(candidateRows(page)).toHaveCount(Math.min(total, 200));
    await page.reload();
    await expect(page.getByRole("combobox", { name: "Rows a page" })).toHaveValue("200");
  });

  test("the funnel says why a stage counts more than the one before it", async ({ page }) => {
    const admitted = await stageCount(page, "Admission granted");
    const dispatched = await stageCount(page, "Dispatched");
    const note = funnel(page).getByText(/dispatched > .* admitted/);
    if (dispatched > admitted) {
      await expect(note).toContainText(`${dispatched} dispatched > ${admitted} admitted: ${dispatched - admitted}`);
      await expect(note).toContainText("R12");
    } else {
      await expect(note).toHaveCount(0);
    }
  });

  test("the run picker narrows the audit to one run, and a row leads to the run page at its turn and back", async ({ page }) => {
    const picker = page.getByRole("combobox", { name: "Run", exact: true });
    await picker.fill("etf-fees-voo-ivv-splg");
    await picker.press("Enter");
    await expect(page).toHaveURL(/\/reviewer\?run=etf-fees-voo-ivv-splg$/);
    await expect(candidateRows(page).first()).toBeVisible();
    for (const text of await candidateRows(page).allInnerTexts()) expect(text).toContain("etf-fees-voo-ivv-splg");

    const turnLink = candidateRows(page)
      .first()
      .getByRole("link", { name: /^Open .+ at turn \d+$/ });
    const [, turn] = (await turnLink.getAttribute("aria-label"))!.match(/ at turn ([\d,]+)$/)!;
    await turnLink.click();
    await expect(page).toHaveURL(new RegExp(`/runs/etf-fees-voo-ivv-splg\\?turn=${turn.replace(/,/g, "")}$`));
    await page.getByRole("link", { name: "Reviewer audit of this run →" }).click();
    await expect(page).toHaveURL(/\/reviewer\?run=etf-fees-voo-ivv-splg$/);
    await expect(candidateRows(page).first()).toBeVisible();
  });

  test("a saved view of the audit applies its filters", async ({ page }) => {
    const name = `Violations ${Date.now()}`;
    await page.getByRole("checkbox", { name: "Only violations" }).check();
    await expect(page).toHaveURL(/\/reviewer\?violations=1$/);
    await page.getByRole("button", { name: "Views" }).click();
    await page.getByRole("textbox", { name: "Save these filters and sort as" }).fill(name);
    await page.getByRole("button", { name: "Save view" }).click();
    const views = page.getByRole("list", { name: "Saved views" });
    await expect(views.getByRole("link", { name })).toBeVisible();
    await page.keyboard.press("Escape");
    await page.getByRole("checkbox", { name: "Only violations" }).uncheck();
    await expect(page).toHaveURL(/\/reviewer$/);
    await page.getByRole("button", { name: "Views" }).click();
    await views.getByRole("link", { name }).click();
    await expect(page).toHaveURL(/\/reviewer\?violations=1$/);
    await expect(page.getByRole("checkbox", { name: "Only violations" })).toBeChecked();
    await page.getByRole("button", { name: "Views" }).click();
    await views.getByRole("button", { name: `Delete ${name}` }).click();
    await expect(views.getByRole("link", { name })).toHaveCount(0);
  });
});
