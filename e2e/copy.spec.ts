import { expect, test, type Locator, type Page } from "@playwright/test";
import { signInToDemo } from "./support/sign-in";

/** The demo run whose reminders are dropped at capacity on the tightest turns (context and edits). */
const TIGHT_RUN = "etf-holdings-overlap";

/** "1,234 B" → 1234, "-56 B" → -56 */
const bytesOf = async (locator: Locator) => Number((await locator.innerText()).replace(/[^\d-]/g, ""));
/** As the page writes bytes (en-US grouping). */
const bytesText = (n: number) => `${n.toLocaleString("en-US")} B`;
/** A name no earlier run of the specs has used (the e2e database may be reused with E2E_BASE_URL). */
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const templateRow = (page: Page, template: string) => page.locator(`[data-template="${template}"]`);
/** "2 → 0 (−2)" → [2, 0] */
const beforeAfter = async (cell: Locator) => {
  const [before, after] = (await cell.innerText()).split("→").map((part) => Number(part.trim().split(" ")[0].replace(/,/g, "")));
  return [before, after];
};

test.describe("Copy editor and what-if replay", () => {
  test.beforeEach(async ({ page }) => {
    // The first visit rebuilds demo runs on the server (the largest has 2,000 turns).
    test.setTimeout(120_000);
    // From the built-in default copy, whatever the project default is (the second test sets one).
    await signInToDemo(page, "/copy?from=spec");
    await expect(page.getByRole("heading", { level: 1, name: "Reminder copy" })).toBeVisible({ timeout: 90_000 });
  });

  test("a shorter context notice: preview, save, replay over the demo runs, open a changed turn", async ({ page }, testInfo) => {
    // Preview on the tight run: choosing it jumps to its first turn with a dropped context notice.
    await page.getByRole("combobox", { name: "Preview run" }).selectOption(TIGHT_RUN);
    const target = () => new URL(page.url()).searchParams;
    await expect.poll(() => `${target().get("run")} ${target().has("turn")}`).toBe(`${TIGHT_RUN} true`);
    const turn = Number(target().get("turn"));
    expect(turn).toBeGreaterThan(0);
    await expect(page.getByRole("spinbutton", { name: "Preview turn number" })).toHaveValue(String(turn));
    const preview = page.getByRole("region", { name: "Preview turn" });
    const free = await bytesOf(preview.getByTestId("free-bytes"));
    await expect(preview.getByTestId("draft-context")).toContainText("dropped");

    const context = templateRow(page, "context.*");
    const before = await bytesOf(context.getByTestId("template-bytes"));
    expect(before).toBeGreaterThan(free);
    // Too long even alone, and dropped in R8 order after what fits before it.
    await expect(context.getByTestId("template-fit")).toContainText(/^✕ too long even alone; dropped (first|after .+) \(.+ left\)$/);

    // A placeholder of another key is named right under the template, and saving waits for a fix.
    const text = page.getByRole("textbox", { name: "Template context · any stage" });
    await text.fill("Context: {bytes} bytes");
    await expect(context.getByRole("alert")).toContainText("unknown placeholder {bytes}");
    await expect(text).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByRole("button", { name: "Save as new version" })).toBeDisabled();
    // While it is invalid, its preview is held back (no fit claimed) and the turn's draft column is not judged.
    await expect(context.getByTestId("preview-held")).toContainText("No preview or fit while this template is invalid");
    await expect(context.getByTestId("template-fit")).toHaveCount(0);
    await expect(preview.getByTestId("refit-held")).toBeVisible();
    await expect(preview.getByTestId("draft-context")).toHaveText("not judged");

    // The shorter notice: its byte cost drops below the turn's free bytes and the refit includes it.
    await text.fill("Context {percent}% full.");
    await expect(context.getByRole("alert")).toHaveCount(0);
    await expect(context.getByTestId("template-bytes")).not.toHaveText(bytesText(before));
    const after = await bytesOf(context.getByTestId("template-bytes"));
    expect(after).toBe(Buffer.byteLength(await context.getByTestId("template-text").innerText()) + 1);
    expect(after).toBeLessThanOrEqual(free);
    // Fits alone, and in R8 order on this turn after the reminders before it.
    await expect(context.getByTestId("template-fit")).toContainText(/^fits alone; fits (first|after .+) \(.+ left\)$/);
    await expect(preview.getByTestId("draft-context")).toContainText("fits");

    // The diff against the parent shows the change word by word.
    const changes = page.getByRole("list", { name: "Changes from the built-in default copy" });
    await expect(changes.locator('li[data-change="changed"]')).toHaveCount(1);
    await expect(changes.locator("ins")).toContainText("Context");
    await expect(changes.locator("del").first()).toBeVisible();
    // Marked in words, not only by colour.
    await expect(changes.locator("del").first()).toContainText("deleted:");
    await expect(changes.locator("ins").first()).toContainText("inserted:");

    // Save it as a new version.
    const name = unique("Short context");
    const save = page.getByRole("form", { name: "Save as a new version" });
    await save.getByLabel("Name").fill(name);
    await save.getByLabel("Note").fill("Say only how full the request is.");
    await save.getByRole("button", { name: "Save as new version" }).click();
    await expect(save.getByRole("status")).toContainText(`Saved “${name}”`);
    const versions = page.getByRole("table", { name: "Copy versions" });
    await expect(versions.locator(`tr[data-version="${name}"]`)).toContainText("Editing");
    await expect(page.getByText(`No changes from “${name}” yet.`)).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("copy-editor.png"), fullPage: true });

    // Replay it over the demo runs.
    await save.getByRole("link", { name: "Replay it over recorded runs →" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "What-if replay" })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("combobox", { name: "Copy version" })).toHaveValue(/.+/);
    // What the replay will rebuild is counted first.
    await expect(page.getByTestId("matching")).toHaveText(/^Would rebuild [\d,]+ runs? · [\d,]+ turns?/);
    await page.getByRole("button", { name: "Replay" }).click();
    const summary = page.getByRole("region", { name: `Replay with copy “${name}”` }).getByRole("status");
    await expect(summary).toContainText("turns rebuilt", { timeout: 60_000 });
    await expect(page).toHaveURL(/job=/);

    // Fewer context notices are dropped; the changed turns are listed.
    const [droppedBefore, droppedAfter] = await beforeAfter(page.getByTestId("dropped-context"));
    expect(droppedBefore).toBeGreaterThan(0);
    expect(droppedAfter).toBeLessThan(droppedBefore);
    const [deliveredBefore, deliveredAfter] = await beforeAfter(page.getByTestId("delivered-context"));
    expect(deliveredAfter).toBeGreaterThan(deliveredBefore);
    const fateTurns = Number(await page.getByTestId("fate-turns").innerText());
    expect(fateTurns).toBeGreaterThan(0);
    expect(Number((await page.getByTestId("changed-turns").innerText()).replace(/,/g, ""))).toBeGreaterThanOrEqual(fateTurns);
    await expect(page.getByRole("figure", { name: /Dropped reminders \(capacity\) per key/ })).toBeVisible();
    // Each key its own small chart, labelled with its unit and its change.
    const contextDrops = page.getByRole("figure", { name: /^context: baseline [\d,]+, what-if [\d,]+ dropped reminders/ });
    await expect(contextDrops).toContainText("reminders, 0–");
    await expect(page.getByTestId("delta-dropped-context")).toContainText("Δ −");
    // The replay is listed among the recent ones, linking back to it.
    await expect(
      page
        .getByRole("table", { name: "Recent replays" })
        .getByRole("link", { name: `copy “${name}”` })
        .first(),
    ).toBeVisible();

    // Follow-up is shown beside it, as association.
    const followUp = page.getByRole("region", { name: "Follow-up after delivery" });
    await expect(followUp).toContainText("Association, not effect.");
    await expect(followUp.getByRole("table").first()).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("replay.png"), fullPage: true });

    // One keystroke to the first changed turn: `]` focuses its chip and says which it is.
    await page.locator("body").press("]");
    const firstChip = page
      .getByRole("list", { name: /^Changed turns of / })
      .first()
      .getByRole("link")
      .first();
    await expect(firstChip).toBeFocused();
    await expect(page.getByTestId("jump-changed-turn")).toHaveText(/^Changed turn 1 of [\d,]+: .+, Turn \d+: /);

    // Open the changed turn we previewed: baseline dropped the context notice, the what-if delivers it.
    // Its chip says so: "<turn> · context ✕→●".
    const chip = page
      .getByRole("list", { name: `Changed turns of ${TIGHT_RUN}` })
      .getByRole("link", { name: new RegExp(`^Turn ${turn}:`) });
    await expect(chip).toContainText(new RegExp(`^${turn} · .*context ✕→●`));
    await chip.click();
    await expect(page.getByRole("heading", { level: 1, name: `Turn ${turn}: baseline vs copy “${name}”` })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByRole("region", { name: "What changed" })).toContainText("context");
    const baseline = page.getByRole("list", { name: "Baseline reminders" });
    const whatIf = page.getByRole("list", { name: "What-if reminders" });
    await expect(baseline.locator('li[data-key="context"]')).toHaveAttribute("data-status", "dropped");
    await expect(whatIf.locator('li[data-key="context"]')).not.toHaveAttribute("data-status", "dropped");
    await expect(whatIf.locator('li[data-key="context"]')).toContainText("full.");
    // No agent ran with the what-if copy: its comparisons with the agent's record are not listed.
    await expect(page.getByTestId("what-if-findings-note")).toBeVisible();
    await expect(page.getByRole("list", { name: "What-if findings" }).getByText("MISSING_REMINDER")).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath("replay-turn.png"), fullPage: true });

    // → steps to the run's next changed turn, ← back.
    const nav = page.getByRole("navigation", { name: "Changed turns" });
    const next = await nav.getByRole("link", { name: /changed turn \d+ →/ }).textContent();
    const nextTurn = Number(next!.match(/\d+/)![0]);
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("heading", { level: 1, name: `Turn ${nextTurn}: baseline vs copy “${name}”` })).toBeVisible({
      timeout: 30_000,
    });
    await page.keyboard.press("ArrowLeft");
    await expect(page.getByRole("heading", { level: 1, name: `Turn ${turn}: baseline vs copy “${name}”` })).toBeVisible({
      timeout: 30_000,
    });

    // Back to the replay: the same inputs again are answered from the kept result.
    await page.getByRole("link", { name: "What-if replay" }).click();
    await expect(summary).toContainText("turns rebuilt");
    await page.getByRole("button", { name: "Replay" }).click();
    await expect(summary).toContainText("this is that result, kept");
  });

  test("an unsaved draft comes back with a notice, and leaving by a link asks first", async ({ page }) => {
    const review = `Checkpoint {checkpoint}: kept ${unique("draft")}.`;
    await page.getByRole("textbox", { name: "Template review · any checkpoint" }).fill(review);

    // Another tab of the same browser finds the draft kept, and says so.
    const again = await page.context().newPage();
    await again.goto("/copy?from=spec");
    await expect(again.getByTestId("draft-restored")).toContainText("Restored your unsaved draft");
    await expect(again.getByRole("textbox", { name: "Template review · any checkpoint" })).toHaveValue(review);
    await again.close();

    // A link out asks first: "no" stays with the edits, "yes" leaves.
    const runsLink = page.getByRole("link", { name: "Runs", exact: true }).first();
    const asked: string[] = [];
    page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await runsLink.click();
    await expect.poll(() => asked).toEqual([expect.stringMatching(/^Leave with unsaved edits\?/)]);
    await expect(page).toHaveURL(/\/copy/);
    await expect(page.getByRole("textbox", { name: "Template review · any checkpoint" })).toHaveValue(review);
    page.once("dialog", (dialog) => void dialog.accept());
    await runsLink.click();
    await expect(page).toHaveURL(/\/runs/);

    // Discarding the kept draft brings back the version edited from.
    await page.goto("/copy?from=spec");
    await expect(page.getByTestId("draft-restored")).toBeVisible();
    await page.getByRole("button", { name: "Discard the draft" }).click();
    await expect(page.getByText("No changes from the built-in default copy yet.")).toBeVisible();
  });

  test("versions: make one the project default, and the editor starts from it", async ({ page }) => {
    const name = unique("Review now");
    const review = `Checkpoint {checkpoint}: review now (${name}).`;
    await page.getByRole("textbox", { name: "Template review · any checkpoint" }).fill(review);
    const save = page.getByRole("form", { name: "Save as a new version" });
    await save.getByLabel("Name").fill(name);
    await save.getByRole("button", { name: "Save as new version" }).click();
    await expect(save.getByRole("status")).toContainText(`Saved “${name}”`);

    const row = page.getByRole("table", { name: "Copy versions" }).locator(`tr[data-version="${name}"]`);
    await row.getByRole("button", { name: "Make default" }).click();
    await expect(row).toContainText("project default");

    // A fresh visit edits from the project default, and editing from the built-in default copy is one click away.
    await page.goto("/copy");
    await expect(page.getByText(`Editing from “${name}”.`)).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Template review · any checkpoint" })).toHaveValue(review);
    const specRow = page
      .getByRole("table", { name: "Copy versions" })
      .getByRole("row")
      .filter({ has: page.getByRole("rowheader", { name: /^Built-in default copy/ }) });
    await specRow.getByRole("button", { name: "Edit from this" }).click();
    await expect(page.getByText("Editing from the built-in default copy.")).toBeVisible();
    await expect(page).toHaveURL(/from=spec/);

    // Adding a stage template starts from `*`; removing it again leaves no change.
    await page.getByRole("spinbutton", { name: "New requests stage template" }).fill("3");
    await page.getByRole("button", { name: "Add stage template for requests" }).click();
    await expect(page.getByRole("textbox", { name: "Template requests · stage 3" })).toBeVisible();
    await expect(page.getByRole("list", { name: "Changes from the built-in default copy" })).toContainText("added");
    await page.getByRole("button", { name: "Remove template requests · stage 3" }).click();
    await expect(page.getByText("No changes from the built-in default copy yet.")).toBeVisible();
  });
});
