import { expect, test, type Page } from "@playwright/test";
import { THEME_COOKIE } from "@/components/layout/theme";
import { expectNoAxeViolations } from "./support/axe";
import { demoReviewer } from "./support/demo-reviewer";
import { signInToDemo } from "./support/sign-in";

/** "12 of 40 reviewed" as numbers. */
async function progressOf(page: Page): Promise<{ reviewed: number; total: number }> {
  const heading = page.getByRole("heading", { level: 2, name: /\d+ of [\d,]+ reviewed/ });
  await expect(heading).toBeVisible({ timeout: 15_000 });
  const [, reviewed, total] = (await heading.textContent())!.match(/([\d,]+) of ([\d,]+) reviewed/)!;
  return { reviewed: Number(reviewed.replace(/,/g, "")), total: Number(total.replace(/,/g, "")) };
}

const list = (page: Page) => page.getByRole("region", { name: /^(First page|A later page):/ }).getByRole("listitem");
const current = (page: Page) => page.locator('button[data-item][aria-current="true"]');

test.describe.configure({ mode: "serial" });

test("a team lead reviews ten dispatches from the keyboard, and sees them on the run page, in the trends and in the audit log", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await context.addCookies([{ name: THEME_COOKIE, value: "light", url: baseURL! }]);
  await signInToDemo(page, "/reviewer");
  await page.getByRole("link", { name: "Open the review queue" }).click();
  await expect(page).toHaveURL(/\/reviewer\/queue$/);
  await expect(page.getByRole("heading", { level: 1, name: "Review queue" })).toBeVisible();
  await expect(page.locator('[data-hydrated="true"]').first()).toBeAttached({ timeout: 15_000 });

  // The queue is every dispatched, flagged or rebuild-only candidate of the demo runs (computed from
  // the generator and the pure core); the demo gave every second one a verdict.
  const { queue } = demoReviewer();
  const before = await progressOf(page);
  expect(before.total).toBe(queue);
  expect(before.reviewed).toBeGreaterThanOrEqual(Math.ceil(queue / 2));
  await expect(page.getByRole("progressbar")).toHaveAttribute("max", String(queue));
  await expectNoAxeViolations(page, "review queue (light)", { soft: true });

  // The first open candidate is selected; move down and back with j / k.
  const first = (await current(page).textContent())!;
  await expect(current(page)).toContainText("open");
  await page.keyboard.press("j");
  await expect(current(page)).not.toHaveText(first);
  await page.keyboard.press("k");
  await expect(current(page)).toHaveText(first);

  // The first verdict with a comment: c opens the box, Esc leaves it, 2 says "unnecessary".
  const detail = page.getByRole("region", { name: /^Candidate 1 of / });
  const runLink = detail.getByRole("link", { name: /^Open .* at turn / });
  const runHref = (await runLink.getAttribute("href"))!;
  await page.keyboard.press("c");
  await expect(page.getByLabel(/^Comment/)).toBeFocused();
  // The 3 typed in the box is text, not the "should have been dispatched" key.
  await page.keyboard.type("Dispatched with 3 requests left: not worth a review.");
  await page.keyboard.press("Escape");
  await page.keyboard.press("2");
  await expect(page.getByRole("status")).toContainText("Saved: Unnecessary. Next: candidate 2 of");
  await expect(list(page).first()).toContainText("Unnecessary");

  // Nine more: 1 (justified) each time, each saved and followed by the next open one.
  for (let i = 2; i <= 10; i++) {
    await expect(page.getByRole("region", { name: new RegExp(`^Candidate ${i} of `) })).toBeVisible();
    await page.keyboard.press("1");
    await expect(page.getByRole("status")).toContainText(`Next: candidate ${i + 1} of`);
  }
  await expect(page.getByRole("heading", { level: 2, name: `${before.reviewed + 10} of ${queue} reviewed` })).toBeVisible();
  await expect(list(page).filter({ hasText: "Justified" })).toHaveCount(9);
  await expectNoAxeViolations(page, "review queue after ten verdicts", { soft: true, include: "main" });

  // The reviewed list holds them; the first carries its comment.
  await page.getByRole("link", { name: "Reviewed", exact: true }).click();
  await expect(page).toHaveURL(/status=reviewed/);
  await expect(page.getByRole("link", { name: "Reviewed", exact: true })).toHaveAttribute("aria-current", "page");

  // The run page shows the verdict and its comment.
  await page.goto(runHref.replace(/\?.*$/, ""));
  const verdicts = page.getByRole("region", { name: "Review verdicts" });
  await expect(verdicts).toContainText("Unnecessary", { timeout: 30_000 });
  await expect(verdicts).toContainText("Dispatched with 3 requests left: not worth a review.");
  // The trends put this week's verdicts beside the rules.
  await page.goto("/trends");
  const weeks = page.getByRole("region", { name: "Review verdicts per week" });
  await expect(weeks.getByRole("table")).toBeVisible({ timeout: 30_000 });
  await expect(weeks).toContainText(/People and the rules agreed on \d+ of \d+/);
  // And the audit log names each verdict.
  await page.goto("/audit?action=review.verdict");
  await expect(page.getByRole("cell", { name: "Review" }).first()).toBeVisible({ timeout: 15_000 });
});

for (const [theme, width] of [
  ["dark", 1280],
  ["light", 390],
] as const) {
  test(`the review queue in the ${theme} theme at ${width} px has no axe violations`, async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: THEME_COOKIE, value: theme, url: baseURL! }]);
    await page.setViewportSize({ width, height: 900 });
    await signInToDemo(page, "/reviewer/queue?status=all");
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    await progressOf(page);
    await expect(current(page)).toBeVisible();
    await expectNoAxeViolations(page, `review queue (${theme}, ${width} px)`);
  });
}
