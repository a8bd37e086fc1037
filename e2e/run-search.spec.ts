import { expect, test, type Page } from "@playwright/test";
import { ZRunDecisions, ZRunSearch } from "@/lib/contracts";
import { THEME_COOKIE } from "@/components/layout/theme";
import { expectNoAxeViolations } from "./support/axe";
import { signInToDemo } from "./support/sign-in";

/**
 * Search inside a run (docs/search.md) on a demo run: the turns whose reminder texts hold "requests"
 * are worked out here from the run's decisions (the API's), turn by turn, never taken from the
 * search's own answer; the page must show that many, mark them, and land on a mark's turn.
 */
const RUN = "etf-fees-voo-ivv-splg";

async function interactive(page: Page) {
  await expect(page.locator('[data-hydrated="true"]')).toBeAttached({ timeout: 15_000 });
}

const selectedTurn = (page: Page) => Number(new URL(page.url()).searchParams.get("turn"));

/** The turns whose reminders' texts hold `word` (any case), from the run's rebuilt decisions. */
async function turnsWithText(page: Page, word: string): Promise<number[]> {
  const answer = await page.request.get(`/api/v1/runs/${RUN}/decisions`);
  expect(answer.ok()).toBe(true);
  const decisions = ZRunDecisions.parse(await answer.json());
  return decisions.turns.filter((t) => t.reminders.some((r) => r.text.toLowerCase().includes(word))).map((t) => t.turn);
}

/** Waits until the run's stored rebuild has its search index (the demo data is rebuilt at start-up). */
async function waitForIndex(page: Page) {
  await expect
    .poll(
      async () => {
        const answer = await page.request.get(`/api/v1/runs/${RUN}/search?q=x`);
        return answer.ok() && ZRunSearch.parse(await answer.json()).indexed;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
}

test.describe("search inside a run", () => {
  test("finds the turns whose reminders say a word, marks them on the timeline, and a mark or a step lands on its turn", async ({
    page,
  }) => {
    await signInToDemo(page, `/runs/${RUN}`);
    await interactive(page);
    await waitForIndex(page);
    const expected = await turnsWithText(page, "requests");
    expect(expected.length).toBeGreaterThan(1);

    const panel = page.getByRole("region", { name: "Search this run" });
    await panel.getByRole("combobox", { name: "Kind" }).selectOption({ label: "Reminder text" });
    await panel.getByRole("searchbox", { name: "Search this run" }).fill("requests");
    const total = expected.length.toLocaleString("en-US");
    await expect(panel.getByTestId("run-search-status")).toHaveText(
      expected.length > 500 ? `${total} turns match · showing first 500` : `${total} turns match`,
    );

    // The marks, on the lane of the charts' turn axis: each at a matching turn, the first at the first one.
    const lane = panel.getByRole("slider", { name: "Search matches" });
    const marks = lane.locator("[data-mark]");
    expect(await marks.count()).toBeGreaterThan(0);
    const markTurns = (await marks.evaluateAll((els) => els.map((el) => Number(el.getAttribute("data-turn"))))) as number[];
    for (const turn of markTurns) expect(expected).toContain(turn);
    expect(markTurns[0]).toBe(expected[0]);

    // A click on a mark selects its turn: the inspector opens on it.
    const mark = marks.nth(Math.min(2, markTurns.length - 1));
    const turn = Number(await mark.getAttribute("data-turn"));
    await mark.click();
    await expect.poll(() => selectedTurn(page)).toBe(turn);
    await expect(page.getByRole("complementary", { name: "Selected turn" }).getByLabel(`Turn ${turn}`)).toBeVisible();

    // Next match steps to the next matching turn after the selected one, and says so.
    const next = expected.find((t) => t > turn);
    if (next !== undefined) {
      await panel.getByRole("button", { name: "Next match" }).click();
      await expect.poll(() => selectedTurn(page)).toBe(next);
      await expect(panel.getByTestId("run-search-status")).toContainText(`turn ${next.toLocaleString("en-US")}: next match.`);
    }

    // By keyboard: the lane is one slider; Home then Enter selects the first match.
    await lane.focus();
    await page.keyboard.press("Home");
    await expect(lane).toHaveAttribute("aria-valuenow", "1");
    await expect(lane).toHaveAttribute("aria-valuetext", new RegExp(`^turns? ${expected[0].toLocaleString("en-US")}\\b`));
    await page.keyboard.press("Enter");
    await expect.poll(() => selectedTurn(page)).toBe(expected[0]);

    // A word no turn holds.
    await panel.getByRole("searchbox", { name: "Search this run" }).fill("no such words in any reminder");
    await expect(panel.getByTestId("run-search-status")).toHaveText("No turn matches as reminder text.");
    await expect(lane).toBeHidden();
  });

  test("the search and its marks pass axe in light and dark, and at 390 px", async ({ page, context, baseURL }) => {
    test.setTimeout(60_000);
    await signInToDemo(page, `/runs/${RUN}`);
    await interactive(page);
    await waitForIndex(page);
    const search = async () => {
      const panel = page.getByRole("region", { name: "Search this run" });
      await panel.getByRole("searchbox", { name: "Search this run" }).fill("requests");
      await expect(panel.getByTestId("run-search-status")).toHaveText(/^[\d,]+ turns? match/);
      await expect(panel.getByRole("slider", { name: "Search matches" })).toBeVisible();
      return panel;
    };
    await search();
    await expectNoAxeViolations(page, "run search (light)", { soft: true, include: '[data-testid="run-search"]' });
    await context.addCookies([{ name: THEME_COOKIE, value: "dark", url: baseURL! }]);
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await interactive(page);
    await search();
    await expectNoAxeViolations(page, "run search (dark)", { soft: true, include: '[data-testid="run-search"]' });
    await page.setViewportSize({ width: 390, height: 844 });
    const panel = await search();
    await expectNoAxeViolations(page, "run search at 390 px", { soft: true, include: '[data-testid="run-search"]' });
    // At 390 px the box, the kind and the steps fit the screen: nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const box = (await panel.getByRole("searchbox", { name: "Search this run" }).boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  });
});
