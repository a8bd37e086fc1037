import { expect, test, type Locator } from "@playwright/test";
import { signInToDemo } from "./support/sign-in";

const RUN = "etf-holdings-overlap";
/** "358 → 412 (+54)" → [358, 412] */
const beforeAfter = async (cell: Locator) =>
  (await cell.innerText()).split("→").map((part) => Number(part.trim().split(" ")[0].replace(/,/g, "")));

test.describe("Policy editor", () => {
  test.beforeEach(async ({ page }) => {
    test.setTimeout(120_000);
    await signInToDemo(page, `/copy/policy?run=${RUN}`);
    await expect(page.getByRole("heading", { level: 1, name: "Reminder policy" })).toBeVisible({ timeout: 90_000 });
  });

  test("earlier context stages: inline problems, save, replay shows more context notices", async ({ page }, testInfo) => {
    await expect(page.getByText(`Editing from run ${RUN}'s policy.`)).toBeVisible();
    const tabs = page.getByRole("navigation", { name: "Tuning" });
    await expect(tabs.getByRole("link", { name: "Policy" })).toHaveAttribute("aria-current", "page");

    // Stages must ascend: the problem is named under the field, and saving waits.
    const stages = page.getByRole("textbox", { name: "Context stages" });
    const context = page.locator('[data-section="context"]');
    await stages.fill("0.7, 0.6");
    await expect(context.getByRole("alert")).toContainText("strictly ascending: 0.6 does not exceed 0.7");
    await expect(stages).toHaveAttribute("aria-invalid", "true");
    await stages.fill("0.7, half");
    await expect(context.getByRole("alert")).toContainText('got "half"');
    await expect(page.getByRole("button", { name: "Save as new version" })).toBeDisabled();

    // A valid, earlier first stage: each threshold shown in bytes, and the change against the run's policy.
    await stages.fill("0.5, 0.7, 0.85, 0.95");
    await expect(context.getByRole("alert")).toHaveCount(0);
    await expect(context).toContainText("stage 1 at 100,000 B");
    const changes = page.getByRole("list", { name: `Changes from run ${RUN}'s policy` });
    await expect(changes).toContainText("context.stages");
    await expect(changes.locator("ins")).toHaveText("0.5, 0.7, 0.85, 0.95");

    // Switching a section off is a change too, and back on restores it.
    await page.getByRole("checkbox", { name: "Time section on" }).uncheck();
    await expect(changes).toContainText("time");
    await page.getByRole("checkbox", { name: "Time section on" }).check();
    await expect(changes.locator("li")).toHaveCount(1);

    const name = `Earlier context ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
    const save = page.getByRole("form", { name: "Save as a new version" });
    await save.getByLabel("Name").fill(name);
    await save.getByRole("button", { name: "Save as new version" }).click();
    await expect(save.getByRole("status")).toContainText(`Saved “${name}”`);
    await expect(page.getByRole("table", { name: "Policy versions" }).locator(`tr[data-version="${name}"]`)).toContainText("Editing");
    await page.screenshot({ path: testInfo.outputPath("policy-editor.png"), fullPage: true });

    // Replay it: lower thresholds make more context notices.
    await save.getByRole("link", { name: "Replay it over recorded runs →" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "What-if replay" })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("combobox", { name: "Policy version" })).toHaveValue(/.+/);
    await expect(page.getByRole("combobox", { name: "Copy version" })).toHaveValue("");
    await page.getByRole("button", { name: "Replay" }).click();
    await expect(page.getByRole("region", { name: `Replay with policy “${name}”` }).getByRole("status")).toContainText("turns rebuilt", {
      timeout: 60_000,
    });
    const [before, after] = await beforeAfter(page.locator('tr[data-key="context"] td').first());
    expect(after).toBeGreaterThan(before);
    expect(Number(await page.getByTestId("fate-turns").innerText())).toBeGreaterThan(0);
  });

  test("times in minutes and stage thresholds in whole units, the exact value on hover", async ({ page }) => {
    // The time limit reads in minutes; its exact milliseconds are beside it.
    const limit = page.getByRole("textbox", { name: "Time time limit" });
    await expect(limit).toHaveValue(/^\d+(\.\d+)?$/);
    const time = page.locator('[data-section="time"]');
    await expect(time).toContainText(/= [\d,]+ ms/);
    await expect(page.getByTestId("thresholds-time")).toContainText(/^stage 1 at [\d.,]+ min/);

    // Requests thresholds are whole requests, the exact ratio × usable in title.
    const requests = page.getByTestId("thresholds-requests");
    await expect(requests).toHaveText(/^stage 1 at [\d,]+ requests? · stage 2 at [\d,]+ requests? · stage 3 at [\d,]+ requests?$/);
    await expect(requests.locator("span[title]").first()).toHaveAttribute("title", /^exactly [\d.,]+ requests \(0\.5 × [\d,]+\)$/);

    // An exact value with its unit is accepted and kept as typed; the diff names it in minutes.
    const every = page.getByRole("textbox", { name: "Review checkpoints checkpoint every (time)" });
    await every.fill("90000 ms");
    await expect(page.locator('[data-section="review"]')).toContainText("= 90,000 ms");
    await every.fill("1.5");
    await expect(page.locator('[data-section="review"]')).toContainText("= 90,000 ms");
    await expect(page.getByRole("list", { name: `Changes from run ${RUN}'s policy` })).toContainText("1.5 min");
    await every.fill("soon");
    await expect(page.locator('[data-section="review"]').getByRole("alert")).toContainText("expected minutes");
  });

  test("starts from another run's policy", async ({ page }) => {
    await page.getByRole("combobox", { name: "Start from a run's policy" }).selectOption("etf-quick-compare");
    await expect(page.getByText("Editing from run etf-quick-compare's policy.")).toBeVisible();
    await expect(page).toHaveURL(/run=etf-quick-compare/);
  });
});
