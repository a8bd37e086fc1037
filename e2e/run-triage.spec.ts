import { expect, test, type Page } from "@playwright/test";
import { ZRunTriage, type TRunTriage } from "@/lib/contracts";
import { signInToDemo } from "./support/sign-in";

const RUN = "etf-fees-voo-ivv-splg";

async function interactive(page: Page) {
  await expect(page.locator('[data-hydrated="true"]')).toBeAttached({ timeout: 15_000 });
}

/** The run's triage steps from a turn, read through the API with the page's session. */
async function triageFrom(page: Page, turn: number | null): Promise<TRunTriage> {
  const answer = await page.request.get(`/api/v1/runs/${RUN}/triage${turn === null ? "" : `?turn=${turn}`}`);
  expect(answer.ok()).toBe(true);
  return ZRunTriage.parse(await answer.json());
}

const selectedTurn = (page: Page) => Number(new URL(page.url()).searchParams.get("turn"));

test.describe("run page triage", () => {
  test("steps through findings, drops and failed deliveries by keyboard and buttons, from the selected turn", async ({ page }) => {
    await signInToDemo(page, `/runs/${RUN}`);
    await interactive(page);
    const start = await triageFrom(page, null);
    expect(start.ready).toBe(true);
    expect(start.steps.finding.count).toBeGreaterThan(1);
    const bar = page.getByRole("navigation", { name: /^Triage/ });
    await expect(bar.getByTestId("triage-count-finding")).toHaveText(String(start.steps.finding.count));

    // n: the first finding; n again: the next one from there; p: back.
    await page.keyboard.press("n");
    await expect.poll(() => selectedTurn(page)).toBe(start.steps.finding.next);
    await expect(page.getByTestId("triage-message")).toHaveText(`turn ${start.steps.finding.next!.toLocaleString("en-US")}: next finding.`);
    const first = start.steps.finding.next!;
    const fromFirst = await triageFrom(page, first);
    await page.keyboard.press("n");
    await expect.poll(() => selectedTurn(page)).toBe(fromFirst.steps.finding.next);
    await page.keyboard.press("p");
    await expect.poll(() => selectedTurn(page)).toBe(first);
    await expect(page.getByRole("complementary", { name: "Selected turn" }).getByLabel(`Turn ${first}`)).toBeVisible();

    // The buttons name where they go, and go there.
    const there = await triageFrom(page, first);
    for (const [kind, name] of [
      ["drop", "dropped reminder"],
      ["delivery", "failed or uncertain delivery"],
    ] as const) {
      const next = there.steps[kind].next;
      const button = bar.getByRole("button", { name: new RegExp(`^Next ${name}`) });
      if (next === null) {
        await expect(button).toBeDisabled();
        continue;
      }
      await expect(button).toHaveAccessibleName(new RegExp(`^Next ${name}: turn ${next.toLocaleString("en-US")}, key .$`));
      await button.click();
      await expect.poll(() => selectedTurn(page)).toBe(next);
      await page.keyboard.press("p"); // back near the start for the next kind
    }
  });

  test("the header's findings count leads to the findings; each strip and lane is one tab stop; the brush zooms by keyboard", async ({
    page,
  }) => {
    await signInToDemo(page, `/runs/${RUN}`);
    await interactive(page);
    const link = page.getByTestId("header-findings");
    await expect(link).toHaveText(/^\d[\d,]* findings?$/);
    await link.click();
    await expect(page).toHaveURL(/#findings$/);
    await expect(page.getByRole("heading", { name: /^Findings \(/ })).toBeInViewport();

    // Each strip and lane is one slider: one tab stop, nothing focusable inside; arrows move along its marks.
    const strips = page.getByRole("slider", { name: /reminders, by stage and status$|^(rules|recorded|notified|findings): / });
    expect(await strips.count()).toBeGreaterThan(4);
    for (const strip of await strips.all()) {
      await expect(strip).toHaveAttribute("tabindex", "0");
      await expect(strip.locator("button, a, [tabindex]")).toHaveCount(0);
    }
    const findingsLane = page.getByRole("slider", { name: /^findings: / });
    await findingsLane.focus();
    await page.keyboard.press("Home");
    await expect(findingsLane).toHaveAttribute("aria-valuenow", "1");
    await page.keyboard.press("ArrowRight");
    await expect(findingsLane).toHaveAttribute("aria-valuenow", "2");
    const second = Number(/^turns? ([\d,]+)/.exec((await findingsLane.getAttribute("aria-valuetext")) ?? "")![1].replace(/,/g, ""));
    await page.keyboard.press("Enter");
    await expect.poll(() => selectedTurn(page)).toBe(second);

    // The requests chart's value axis at run scale, then zoomed by keyboard on the brush.
    const axisTicks = () =>
      page
        .getByRole("region", { name: /^Requests\b/ })
        .locator(".recharts-yAxis-tick-labels text")
        .allTextContents();
    await expect.poll(async () => (await axisTicks())[0]).toBe("0");
    await page.getByTestId("turn-brush").focus();
    await page.keyboard.press("+");
    await expect(page).toHaveURL(/[?&]from=\d+&to=\d+/);
    await expect.poll(async () => (await axisTicks())[0]).not.toBe("0");
    await page.keyboard.press("0");
    await expect(page).not.toHaveURL(/[?&]from=/);
  });

  test("a click on a chart selects the turn its tooltip shows", async ({ page }) => {
    await signInToDemo(page, `/runs/${RUN}`);
    await interactive(page);
    const plot = page
      .getByRole("region", { name: /^Context\b/ })
      .getByRole("img")
      .first();
    await plot.evaluate((el) => el.scrollIntoView({ block: "center" }));
    const box = (await plot.boundingBox())!;
    for (const fraction of [0.37, 0.61, 0.83]) {
      const x = box.x + box.width * fraction;
      const y = box.y + box.height / 2;
      await page.mouse.move(x, y);
      // This chart's own tooltip (the charts share the pointer's turn, so the parts chart under it shows one too).
      const tooltip = plot.locator(".recharts-tooltip-wrapper strong");
      await expect(tooltip).toHaveText(/^turn [\d,]+$/);
      const shown = Number((await tooltip.textContent())!.replace(/[^\d]/g, ""));
      await page.mouse.click(x, y);
      await expect.poll(() => selectedTurn(page)).toBe(shown);
    }
  });

  for (const { width, height, layout } of [
    { width: 1440, height: 900, layout: "column" },
    { width: 1024, height: 768, layout: "drawer" },
    { width: 390, height: 844, layout: "sheet" },
  ] as const) {
    test(`the turn inspector at ${width} px is a ${layout}, opened into view on selection`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      await signInToDemo(page, `/runs/${RUN}`);
      await interactive(page);
      const panel = page.getByTestId("turn-inspector-panel");
      if (layout !== "column") await expect(panel).toBeHidden();
      await page.keyboard.press("n");
      const turn = (await triageFrom(page, null)).steps.finding.next!;
      await expect.poll(() => selectedTurn(page)).toBe(turn);
      const inspector = panel.getByLabel(`Turn ${turn}`);
      await expect(inspector).toBeVisible();
      await expect(panel.getByRole("button", { name: "Close the turn inspector" })).toBeInViewport();
      const box = (await panel.boundingBox())!;
      if (layout === "column") {
        expect(box.x).toBeGreaterThan(width / 2);
      } else if (layout === "drawer") {
        await expect.poll(async () => Math.round((await panel.boundingBox())!.x + (await panel.boundingBox())!.width)).toBe(width);
        expect(box.width).toBeLessThanOrEqual(440);
      } else {
        await expect.poll(async () => Math.round((await panel.boundingBox())!.y + (await panel.boundingBox())!.height)).toBe(height);
        expect(Math.round(box.width)).toBe(width);
      }
      // The page never scrolls sideways, open or closed.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await panel.getByRole("button", { name: "Close the turn inspector" }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get("turn")).toBeNull();
      if (layout !== "column") await expect(panel).toBeHidden();
    });
  }
});
