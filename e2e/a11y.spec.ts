import { expect, test, type Locator, type Page } from "@playwright/test";
import { openAccountMenu } from "./support/account-menu";
import { expectNoAxeViolations } from "./support/axe";
import { signInToDemo } from "./support/sign-in";
import { THEME_COOKIE } from "@/components/layout/theme";

/**
 * WCAG 2.2 AA with axe-core (e2e/support/axe.ts) on every page state, in the light and the dark
 * theme (chosen by the `cuescope-theme` cookie, as the user menu keeps it). Each state is checked
 * softly so one run lists every state's violations; any violation fails the test.
 */
const TIGHT_RUN = "etf-holdings-overlap";
const RUN = "etf-fees-voo-ivv-splg";
/** The copy version the replay states replay (saved once, found again by name on later runs). */
const SPEC_COPY = "a11y spec copy";

/** Shows a chart's data as its table (a click before hydration is lost, so it is repeated). */
async function viewAsTable(figure: Locator): Promise<void> {
  const button = figure.getByRole("button", { name: /^View as (table|chart)$/ });
  await expect(async () => {
    if ((await button.textContent()) === "View as table") await button.click();
    await expect(figure.getByRole("table")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

/**
 * The run page's states: the 2,000-turn run as it opens (light theme: its thousands of marks are
 * the same elements as a short run's, so the dark theme checks the shorter run), then a turn
 * selected with its inspector (both themes).
 */
async function runPageStates(page: Page, theme: string, disableRules: string[]): Promise<void> {
  if (theme === "light") {
    await signInToDemo(page, `/runs/${TIGHT_RUN}`);
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    await expect(page.locator('[data-hydrated="true"]').first()).toBeAttached({ timeout: 15_000 });
    await expect(page.getByRole("region", { name: /^Findings/ })).toBeVisible({ timeout: 30_000 });
    await expectNoAxeViolations(page, "run page", { soft: true, disableRules });
  } else {
    await signInToDemo(page, `/runs/${RUN}`);
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
  }

  await page.goto(`/runs/${RUN}?turn=5`);
  const inspector = page.getByRole("complementary", { name: "Turn inspector: turn 5" });
  await expect(inspector).toBeVisible({ timeout: 30_000 });
  await expect(inspector).toHaveAttribute("aria-busy", "false");
  await expectNoAxeViolations(page, "run page with the turn inspector open", { soft: true, disableRules });
}

const h1 = (page: Page, name?: string | RegExp) => page.getByRole("heading", { level: 1, ...(name ? { name } : {}) });

for (const theme of ["light", "dark"] as const) {
  test.describe(`axe, ${theme} theme`, () => {
    test.beforeEach(async ({ context, baseURL }) => {
      await context.addCookies([{ name: THEME_COOKIE, value: theme, url: baseURL! }]);
    });

    const inTheme = async (page: Page) => expect(page.locator("html")).toHaveAttribute("data-theme", theme);

    test("signed out: sign-in page, a refused key, the 404", async ({ page }) => {
      await page.goto("/login");
      await inTheme(page);
      await expect(page.getByRole("button", { name: "Open the demo project" })).toBeVisible();
      await expectNoAxeViolations(page, "sign-in", { soft: true });

      await page.getByLabel("Project API key").fill("cs_wrong");
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect(page.getByRole("alert").filter({ hasText: "not accepted" })).toBeVisible();
      await expectNoAxeViolations(page, "sign-in with a refused key", { soft: true, include: ".sign-in-key" });

      await page.goto("/no-such-page");
      await expect(h1(page, "Page not found")).toBeVisible();
      await expectNoAxeViolations(page, "404", { soft: true });
    });

    test("home, runs list (all, filtered, filtered to nothing), reviewer", async ({ page }) => {
      // Several pages, each checked by axe, on a busy machine.
      test.setTimeout(180_000);
      await signInToDemo(page, "/");
      await inTheme(page);
      await expect(h1(page)).toBeVisible();
      await expectNoAxeViolations(page, "home", { soft: true });

      await page.goto("/runs");
      await expect(page.getByRole("link", { name: /Compare fees and holdings/ })).toBeVisible();
      await expectNoAxeViolations(page, "runs list", { soft: true });

      await page.goto("/runs?status=completed&sort=turns");
      await expect(page.getByRole("table").first()).toBeVisible();
      await expectNoAxeViolations(page, "runs list, filtered", { soft: true, include: "main" });

      await page.goto("/runs?q=no-such-task-anywhere");
      await expect(page.getByRole("heading", { name: "No runs match these filters" })).toBeVisible();
      await expectNoAxeViolations(page, "runs list, filtered to nothing", { soft: true, include: "main" });

      await page.goto("/reviewer");
      await expect(h1(page, /reviewer/i)).toBeVisible();
      await expect(page.getByRole("table").first()).toBeVisible({ timeout: 30_000 });
      await expectNoAxeViolations(page, "reviewer", { soft: true });
      const funnel = page.getByRole("figure", { name: /^Candidates through each step/ });
      await viewAsTable(funnel);
      await expect(funnel.getByRole("rowheader", { name: "Cancelled" })).toBeVisible();
      await expectNoAxeViolations(page, "reviewer, the funnel as a table", { soft: true, include: "main figure" });
    });

    test("trends with the delivered vs dropped and fatigue panels, experiments (list and the demo's results), at 390 px too", async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await signInToDemo(page, "/trends");
      await inTheme(page);
      await expect(page.getByRole("region", { name: "Follow-up: delivered vs dropped", exact: true })).toBeVisible({ timeout: 90_000 });
      await expectNoAxeViolations(page, "trends", { soft: true });

      await page.goto("/experiments");
      await expect(h1(page, "Experiments")).toBeVisible();
      await expectNoAxeViolations(page, "experiments", { soft: true });
      await page.getByRole("link", { name: /\(demo\)$/ }).click();
      await expect(page.getByRole("region", { name: "Results per arm", exact: true }).getByRole("table")).toBeVisible({ timeout: 30_000 });
      await expectNoAxeViolations(page, "an experiment's results", { soft: true });

      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await expect(page.getByRole("region", { name: "Results per arm", exact: true }).getByRole("table")).toBeVisible({ timeout: 30_000 });
      await expectNoAxeViolations(page, "an experiment's results at 390 px", { soft: true });
    });

    test("API reference", async ({ page }) => {
      // A long page (36,000 elements): axe takes a minute over all of it on a busy machine, half of it
      // in the colour-contrast rule. The light theme checks it whole with every other rule, and the
      // contrast of one of each of its parts (the header, the contents, an operation, a schema: each
      // part's elements are the same throughout); the dark theme, its header and one operation
      // (only the colours change with the theme).
      test.setTimeout(180_000);
      await signInToDemo(page, "/docs/api");
      await inTheme(page);
      await expect(h1(page, /api/i)).toBeVisible();
      if (theme === "light") {
        await expectNoAxeViolations(page, "API reference", { soft: true, disableRules: ["color-contrast"] });
        await expectNoAxeViolations(page, "API reference: the contrast of each of its parts", {
          rules: ["color-contrast"],
          include: 'header, nav[aria-label="API contents"], #op-updateReview, #schemas section:first-of-type',
        });
      } else {
        await expectNoAxeViolations(page, "API reference: its header", { soft: true, include: "header" });
        await expectNoAxeViolations(page, "API reference: one operation", { include: "#op-updateReview" });
      }
    });

    test("the header's Account menu, the keyboard help, and the Menu at 390 px", async ({ page }) => {
      test.setTimeout(120_000);
      await signInToDemo(page, "/runs");
      await inTheme(page);
      await openAccountMenu(page);
      await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
      await expectNoAxeViolations(page, "Account menu open", { soft: true, include: ".site-header" });

      // The keyboard help, opened from the menu.
      await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Keyboard shortcuts" }).click();
      await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
      await expectNoAxeViolations(page, "keyboard help open", { soft: true, include: "dialog.keyboard-help" });
      await page.keyboard.press("Escape");

      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await openAccountMenu(page);
      await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reviewer" })).toBeVisible();
      await expectNoAxeViolations(page, "Menu open at 390 px", { soft: true });
    });

    test("copy editor (valid and invalid), policy editor, replay form, results and a changed turn", async ({ page }) => {
      // The first visit rebuilds the demo runs; a replay takes up to a minute on a busy machine.
      test.setTimeout(240_000);
      await signInToDemo(page, "/copy?from=spec");
      await inTheme(page);
      await expect(h1(page, "Reminder copy")).toBeVisible({ timeout: 90_000 });
      await expect(page.getByRole("region", { name: "Preview turn" })).toBeVisible({ timeout: 30_000 });
      await expectNoAxeViolations(page, "copy editor", { soft: true });

      const text = page.getByRole("textbox", { name: "Template context · any stage" });
      await text.fill("Context: {bytes} bytes");
      await expect(page.locator('[data-template="context.*"]').getByRole("alert")).toContainText("unknown placeholder {bytes}");
      await expectNoAxeViolations(page, "copy editor with an invalid template", { soft: true, include: '[data-template="context.*"]' });

      // A copy version to replay: saved once, then found by name.
      const versions = page.getByRole("table", { name: "Copy versions" });
      if ((await versions.locator(`tr[data-version="${SPEC_COPY}"]`).count()) === 0) {
        await text.fill("Context {percent}% full.");
        const save = page.getByRole("form", { name: "Save as a new version" });
        await save.getByLabel("Name").fill(SPEC_COPY);
        await save.getByRole("button", { name: "Save as new version" }).click();
        await expect(save.getByRole("status")).toContainText(`Saved “${SPEC_COPY}”`);
      }

      await page.goto(`/copy/policy?run=${TIGHT_RUN}`);
      await expect(h1(page, "Reminder policy")).toBeVisible({ timeout: 90_000 });
      await expectNoAxeViolations(page, "policy editor", { soft: true });

      await page.goto("/copy/replay");
      await expect(h1(page, "What-if replay")).toBeVisible({ timeout: 30_000 });
      await expectNoAxeViolations(page, "replay form", { soft: true });

      const copyVersion = page.getByRole("combobox", { name: "Copy version" });
      const value = await copyVersion.locator("option", { hasText: SPEC_COPY }).first().getAttribute("value");
      await copyVersion.selectOption(value!);
      await page.getByRole("button", { name: "Replay" }).click();
      await expect(page.getByRole("region", { name: `Replay with copy “${SPEC_COPY}”` }).getByRole("status")).toContainText(
        "turns rebuilt",
        { timeout: 120_000 },
      );
      await expectNoAxeViolations(page, "replay results", { soft: true });
      // A chart's data as a table, in place of the drawing.
      const dropped = page.getByRole("figure", { name: /^Dropped reminders \(capacity\) per key/ });
      await viewAsTable(dropped);
      await expect(dropped.getByRole("table", { name: /^Dropped reminders \(capacity\) per key/ })).toBeVisible();
      await expect(dropped.getByRole("columnheader", { name: "Baseline (reminders)" })).toBeVisible();
      await expectNoAxeViolations(page, "replay results, a chart as a table", { soft: true, include: "main figure" });

      await page
        .getByRole("list", { name: /^Changed turns of / })
        .first()
        .getByRole("link")
        .first()
        .click();
      await expect(h1(page, /baseline vs copy/)).toBeVisible({ timeout: 30_000 });
      await expect(page.getByRole("region", { name: "What changed" })).toBeVisible();
      await expectNoAxeViolations(page, "replay turn", { soft: true });
    });

    // The run page's strips and lanes are one slider each (components/run/mark-track.tsx), so no
    // mark is a small target of its own (WCAG 2.5.8). axe takes a minute or more over the run page's
    // thousands of marks on a busy machine.
    test("run page: loaded, then a turn selected with the inspector open", async ({ page }) => {
      test.setTimeout(360_000);
      await runPageStates(page, theme, []);
    });
  });
}

test("skip links: the first Tab reaches “Skip to content”, shown, and it moves past the header", async ({ page }) => {
  await signInToDemo(page, "/runs");
  // A fresh load: Tab starts from the top of the document.
  await page.goto("/runs");
  await expect(page.getByRole("link", { name: /Compare fees and holdings/ })).toBeVisible();
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  // The run page's links exist only where their targets do.
  await expect(page.getByRole("link", { name: "Skip to findings" })).toHaveCount(0);
  await page.keyboard.press("Enter");
  await expect(page.locator("main#main")).toBeFocused();
  await page.keyboard.press("Tab");
  // The next stop is inside the page, not the header's navigation.
  expect(await page.evaluate(() => document.activeElement?.closest("main") !== null)).toBe(true);

  await page.goto(`/runs/${TIGHT_RUN}`);
  await expect(page.getByRole("region", { name: /^Findings/ })).toBeVisible({ timeout: 30_000 });
  // Skip to content, (Skip to turn inspector when a turn is open), then Skip to findings.
  const toFindings = page.getByRole("link", { name: "Skip to findings" });
  for (let i = 0; i < 3 && !(await toFindings.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(toFindings).toBeFocused();
  await expect(toFindings).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#findings$/);
  await expect(page.getByRole("region", { name: /^Findings/ })).toBeInViewport();
});
