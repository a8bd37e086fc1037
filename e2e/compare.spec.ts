import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";
import type { TRunDecisions, TTurnDecision } from "@/lib/contracts";
import { THEME_COOKIE } from "@/components/layout/theme";
import { expectNoAxeViolations } from "./support/axe";
import { signInToDemo } from "./support/sign-in";

/**
 * Run comparison (docs/compare.md) on two demo runs of the same task under two policies: runs of the
 * demo experiment, whose holdout arm turns the requests notice off. The differing turns are worked
 * out here from both runs' decisions (the API's), turn by turn, never taken from the page.
 */
const A = "exp-requests-001";
const B = "exp-requests-002";

const demoKey = () => readFileSync(".cuescope/e2e/demo-key", "utf8").trim();

async function decisionsOf(request: APIRequestContext, runId: string): Promise<TRunDecisions> {
  const response = await request.get(`/api/v1/runs/${runId}/decisions`, { headers: { authorization: `Bearer ${demoKey()}` } });
  expect(response.ok()).toBe(true);
  return (await response.json()) as TRunDecisions;
}

/** The turns where the two runs' decisions differ: a turn only one rebuilt, or other reminders (key, subject, kind, stage, status) or Reviewer decision. */
function differingTurns(a: TRunDecisions, b: TRunDecisions): number[] {
  const view = (t: TTurnDecision | undefined) =>
    t && {
      reminders: t.reminders.map(({ key, subject, kind, stage, status }) => [key, subject, kind, stage, status]),
      reviewer: t.reviewer,
    };
  const [ma, mb] = [new Map(a.turns.map((t) => [t.turn, t])), new Map(b.turns.map((t) => [t.turn, t]))];
  const last = Math.min(a.turns.at(-1)!.turn, b.turns.at(-1)!.turn);
  const out: number[] = [];
  for (let turn = 0; turn <= last; turn++) if (JSON.stringify(view(ma.get(turn))) !== JSON.stringify(view(mb.get(turn)))) out.push(turn);
  return out;
}

test("two runs ticked on the runs list open side by side; ] lands on their first differing decision, [ steps back, and the URL is shareable", async ({
  page,
  request,
}) => {
  const expected = differingTurns(await decisionsOf(request, A), await decisionsOf(request, B));
  expect(expected.length, "the two demo runs decide differently somewhere").toBeGreaterThan(1);

  await signInToDemo(page, "/runs?q=exp-requests-00");
  await page.getByRole("checkbox", { name: `Compare ${A}` }).check();
  await page.getByRole("checkbox", { name: `Compare ${B}` }).check();
  await page.getByRole("link", { name: "Compare selected" }).click();
  await expect(page).toHaveURL(new RegExp(`/compare\\?a=${A}&b=${B}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Compare runs" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Run A" })).toContainText(A);
  await expect(page.getByRole("region", { name: "Run B" })).toContainText(B);
  await expect(page.getByTestId("first-difference")).toContainText(`First differing decision: turn ${expected[0].toLocaleString("en-US")}`);
  for (const meter of ["Requests used", "Time elapsed", "Context: bytes of the final request"]) {
    await expect(page.getByRole("region", { name: new RegExp(`^${meter}`) })).toBeVisible();
  }

  // One key lands on the first differing decision, with both decisions side by side.
  await page.locator("body").click({ position: { x: 1, y: 1 } });
  await page.keyboard.press("]");
  await expect(page).toHaveURL(new RegExp(`[?&]turn=${expected[0]}(&|$)`));
  const differences = page.getByRole("region", { name: "Differences" });
  await expect(differences.getByRole("status")).toContainText(`Turn ${expected[0].toLocaleString("en-US")}:`);
  await expect(differences.getByRole("table")).toContainText("differs");
  await page.keyboard.press("]");
  await expect(page).toHaveURL(new RegExp(`[?&]turn=${expected[1]}(&|$)`));
  await page.keyboard.press("[");
  await expect(page).toHaveURL(new RegExp(`[?&]turn=${expected[0]}(&|$)`));

  // The URL alone opens the same view (a shared link).
  await page.goto(page.url());
  await expect(differences.getByRole("table")).toContainText("differs");
  await expect(differences).toContainText(`turn ${expected[0].toLocaleString("en-US")}:`);

  // An unknown run is named.
  await page.goto(`/compare?a=${A}&b=no-such-run`);
  await expect(page.getByRole("alert").filter({ hasText: "Cannot compare" })).toContainText('run b: no run "no-such-run" in this project');
});

test("the comparison page passes axe in light and dark, and at 390 px", async ({ page, context, baseURL }) => {
  test.setTimeout(60_000);
  await signInToDemo(page, `/compare?a=${A}&b=${B}`);
  await page.keyboard.press("]");
  await expect(page).toHaveURL(/[?&]turn=\d+/);
  await expectNoAxeViolations(page, "comparison (light)", { soft: true });
  await context.addCookies([{ name: THEME_COOKIE, value: "dark", url: baseURL! }]);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(page.getByRole("region", { name: "Differences" }).getByRole("table")).toBeVisible();
  await expectNoAxeViolations(page, "comparison (dark)", { soft: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoAxeViolations(page, "comparison at 390 px", { soft: true });
});
