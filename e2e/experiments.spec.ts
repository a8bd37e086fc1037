import { expect, test, type Page } from "@playwright/test";
import { hydrated } from "./support/hydrated";
import { signInToDemo } from "./support/sign-in";

/** The demo experiment (lib/demo/experiment-demo.ts), loaded with the demo data. */
const DEMO = "Requests notice: default vs urgent copy (demo)";

async function openDemoExperiment(page: Page): Promise<void> {
  await signInToDemo(page, "/experiments");
  await expect(page.getByRole("heading", { level: 1, name: "Experiments" })).toBeVisible({ timeout: 90_000 });
  await page.getByRole("link", { name: DEMO }).click();
  await expect(page.getByRole("heading", { level: 1, name: DEMO })).toBeVisible({ timeout: 30_000 });
}

test.describe("Experiments", () => {
  test.beforeEach(() => test.setTimeout(120_000));

  test("the demo experiment: which arm has the higher follow-up, with intervals and the planned size", async ({ page }) => {
    await openDemoExperiment(page);
    const results = page.getByRole("region", { name: "Results per arm", exact: true });
    // The demo generates runs until every arm has its planned 25 ended runs: the horizon is reached.
    await expect(results.getByRole("status").first()).toContainText("Planned size reached");
    await expect(results).toContainText(/default copy\s*\d+ of 25 runs/);
    const verdict = results.getByRole("list", { name: "Verdict" });
    // The demo model follows a shown urgent notice with probability 0.6 and a default one with 0.3,
    // an unseen one (held out) with 0.05 (lib/demo/experiment-demo.ts, a fixed experiment id).
    await expect(verdict.getByRole("listitem").filter({ hasText: "urgent copy" })).toContainText("higher than control");
    await expect(verdict.getByRole("listitem").filter({ hasText: "holdout" })).not.toContainText("higher than control");
    const table = results.getByRole("table");
    const due = table.getByRole("row", { name: /Follow-up after a due requests notice/ });
    await expect(due).toContainText(/%\s*\[/); // a rate with its interval
    await expect(due).toContainText("vs control");
    await expect(table.getByRole("row", { name: /Time left at the end/ })).toContainText("min");
    // Every key's measures on request.
    await hydrated(results.getByRole("radio", { name: "every key" }));
    await results.getByRole("radio", { name: "every key" }).check();
    await expect(table.getByRole("row", { name: /Follow-up after a due review suggestion/ })).toBeVisible();

    // The CSV holds one line per arm and measure.
    const download = page.waitForEvent("download");
    await results.getByRole("button", { name: "Download the table (CSV)" }).click();
    const csv = await (await (await download).createReadStream()).toArray();
    const text = Buffer.concat(csv).toString("utf8");
    expect(text.split("\r\n")[0]).toMatch(/^arm,runs,planned_runs,measure,unit,kind,value,low,high/);
    expect(text).toContain("urgent copy,");

    // An arm's runs, filtered in the runs list.
    await page.getByRole("link", { name: "Runs of urgent copy" }).click();
    await expect(page).toHaveURL(/\/runs\?.*experiment=.*arm=urgent\+copy|arm=urgent%20copy/);
    await expect(page.getByRole("link", { name: /Quick fee check/ }).first()).toBeVisible({ timeout: 30_000 });
    // The filter bar names the experiment and arm the list is filtered by.
    await expect(page.getByRole("combobox", { name: "Experiment" })).toHaveValue("demo-requests-copy");
    await expect(page.getByRole("combobox", { name: "Arm" })).toHaveValue("urgent copy");
    await page
      .getByRole("link", { name: /Quick fee check/ })
      .first()
      .click();
    await expect(page.getByRole("link", { name: "experiment arm: urgent copy" })).toBeVisible({ timeout: 30_000 });
    // The run's own follow-up and fatigue: its requests notices, delivered and followed or not.
    const own = page.getByRole("region", { name: "Follow-up and fatigue in this run" });
    await expect(
      own
        .getByRole("table")
        .first()
        .getByRole("rowheader", { name: /requests notice/ }),
    ).toBeVisible({ timeout: 30_000 });
    await expect(own.getByRole("columnheader", { name: "most of the run's reminder bytes" })).toBeVisible();
  });

  test("a new draft: a clear error for a bad design, then saved, started and stopped", async ({ page }) => {
    await signInToDemo(page, "/experiments");
    const form = page.getByRole("form", { name: "New experiment" });
    await hydrated(form.getByLabel("Experiment name"));
    await form.getByLabel("Experiment name").fill("Review copy trial");
    await form.getByLabel("Reminder key it is about").selectOption("review");
    // Both weights 0: the API's 400 names the field.
    for (const arm of [1, 2])
      await form
        .getByRole("group", { name: `Arm ${arm}` })
        .getByLabel("Weight")
        .fill("0");
    await form.getByRole("button", { name: "Save the draft" }).click();
    await expect(form.getByRole("alert")).toContainText("arms.0.weight: the weights must sum to more than 0");

    await form.getByRole("group", { name: "Arm 1" }).getByLabel("Weight").fill("1");
    await form.getByRole("group", { name: "Arm 2" }).getByLabel("Weight").fill("1");
    await form.getByRole("group", { name: "Arm 2" }).getByLabel("Copy version").selectOption({ label: "urgent requests notice (demo)" });
    await form.getByRole("button", { name: "Save the draft" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Review copy trial" })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText("draft", { exact: true })).toBeVisible();
    await expect(page.getByRole("region", { name: "Results per arm", exact: true })).toContainText("Not enough runs yet");

    // A draft can still change: rename arm 2 and add a third, over the version read.
    await hydrated(page.getByRole("button", { name: "Edit name, key and arms" }));
    await page.getByRole("button", { name: "Edit name, key and arms" }).click();
    const edit = page.getByRole("form", { name: "Edit the draft" });
    await expect(edit.getByLabel("Experiment name")).toHaveValue("Review copy trial");
    await expect(edit.getByRole("group", { name: "Arm 2" }).getByLabel("Copy version")).toHaveValue(/.+/);
    await edit.getByRole("group", { name: "Arm 2" }).getByLabel("Name").fill("urgent");
    await edit.getByRole("button", { name: "Add an arm" }).click();
    await edit.getByRole("group", { name: "Arm 3" }).getByLabel("Name").fill("holdout");
    await edit.getByRole("group", { name: "Arm 3" }).getByLabel("Weight").fill("2");
    await edit.getByRole("button", { name: "Save the changes" }).click();
    const arms = page.getByRole("region", { name: "Arms", exact: true });
    await expect(arms.getByRole("rowheader")).toHaveText(["control", "urgent", "holdout"]);
    await expect(
      arms
        .getByRole("row", { name: /holdout/ })
        .getByRole("cell")
        .first(),
    ).toHaveText("2");
    await expect(page.getByRole("region", { name: "Edit the draft" })).toContainText("version 2");

    await hydrated(page.getByRole("button", { name: "Start: assign runs" }));
    await page.getByRole("button", { name: "Start: assign runs" }).click();
    await expect(page.getByText("running", { exact: true })).toBeVisible();
    // Started: the arms are frozen, and the page no longer offers to edit them.
    await expect(page.getByRole("region", { name: "Edit the draft" })).toHaveCount(0);
    await page.getByRole("button", { name: "Stop assigning runs" }).click();
    await expect(page.getByText("stopped", { exact: true })).toBeVisible();

    await page.getByRole("link", { name: "Experiments" }).first().click();
    await expect(page.getByRole("link", { name: "Review copy trial" })).toBeVisible();
  });

  test("trends: delivered vs dropped follow-up and fatigue, with what the comparison can mean", async ({ page }) => {
    await signInToDemo(page, "/trends");
    const effect = page.getByRole("region", { name: "Follow-up: delivered vs dropped", exact: true });
    await expect(effect).toBeVisible({ timeout: 90_000 });
    await expect(effect).toContainText("This is an association, not an effect");
    const totals = effect.getByRole("table").first();
    await expect(totals.getByRole("rowheader", { name: /requests notice/ }).first()).toBeVisible();
    await effect.getByText("By context stage at the reminder's turn").click();
    await expect(effect.getByRole("table").nth(1)).toBeVisible();
    const fatigue = page.getByRole("region", { name: "Reminder fatigue", exact: true });
    await expect(fatigue.getByRole("rowheader", { name: "edits" })).toBeVisible();
    await expect(fatigue).toContainText("of request capacity");

    // Filtered to one arm of the demo experiment: the rows of the runs that named it, fewer than all.
    const requestsRow = effect
      .getByRole("table")
      .first()
      .getByRole("row", { name: /requests notice/ })
      .first();
    const everyRun = await requestsRow.textContent();
    const filters = page.getByRole("form", { name: "Trend filters" });
    await hydrated(filters.getByLabel("Experiment"));
    await filters.getByLabel("Experiment").selectOption({ label: DEMO });
    await expect(page).toHaveURL(/experiment=demo-requests-copy/);
    await filters.getByLabel("Arm").selectOption("urgent copy");
    await expect(page).toHaveURL(/arm=urgent/);
    await expect(requestsRow).toBeVisible({ timeout: 30_000 });
    await expect(requestsRow).not.toHaveText(everyRun ?? "", { timeout: 30_000 });
  });
});
