import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { ZEvent, type TEvent, type TPolicy, type TRunDecisions, type TTurnDecision } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
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

/** A demo run of 160 turns whose context notices come earlier, at other stages, under earlier context stages. */
const REPLAYED = "etf-expense-ratio-check";

/** A run's stored events, every page of them (the API's), read back through the event contract. */
async function eventsOf(request: APIRequestContext, runId: string): Promise<TEvent[]> {
  const events: TEvent[] = [];
  for (let cursor: string | null = null; ;) {
    const response = await request.get(`/api/v1/runs/${runId}/events?limit=5000${cursor === null ? "" : `&cursor=${cursor}`}`, {
      headers: { authorization: `Bearer ${demoKey()}` },
    });
    expect(response.ok()).toBe(true);
    const page = (await response.json()) as { events: { event: unknown }[]; nextCursor: string | null };
    events.push(...page.events.map((e) => ZEvent.parse(e.event)));
    if (page.nextCursor === null) return events;
    cursor = page.nextCursor;
  }
}

test("a replay's results open the run against its what-if in the comparison view; ] lands on the first differing decision", async ({
  page,
  request,
}) => {
  // The first visit may rebuild the demo runs; the replay itself takes a few seconds on a busy machine.
  test.setTimeout(180_000);
  const headers = { authorization: `Bearer ${demoKey()}` };
  // A policy version with earlier context stages than the run's own, saved through the API.
  const summary = await request.get(`/api/v1/runs/${REPLAYED}`, { headers });
  expect(summary.ok()).toBe(true);
  const own = ((await summary.json()) as { policy: TPolicy }).policy;
  expect(own.context?.stages).not.toEqual([0.5, 0.7, 0.85, 0.95]);
  const policy: TPolicy = { ...own, context: { ...own.context!, stages: [0.5, 0.7, 0.85, 0.95] } };
  const name = `Earlier context ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const saved = await request.post("/api/v1/policy-versions", { headers, data: { name, policy } });
  expect(saved.status()).toBe(201);
  const { id: policyVersionId } = (await saved.json()) as { id: string };

  // What the comparison must find, worked out here from the run's events: its own rebuild against the rebuild under that policy.
  const events = await eventsOf(request, REPLAYED);
  const expected = differingTurns(rebuild(events), rebuild(events, { policy }));
  expect(expected.length, "the earlier stages change some of the run's decisions").toBeGreaterThan(1);

  // Replay the run with that policy, as the replay page does.
  await signInToDemo(page, `/copy/replay?policy=${policyVersionId}&q=${REPLAYED}`);
  await expect(page.getByRole("heading", { level: 1, name: "What-if replay" })).toBeVisible({ timeout: 90_000 });
  await expect(page.getByRole("combobox", { name: "Policy version" })).toHaveValue(policyVersionId);
  await page.getByRole("button", { name: "Replay" }).click();
  await expect(page.getByRole("region", { name: `Replay with policy “${name}”` }).getByRole("status")).toContainText("turns rebuilt", {
    timeout: 90_000,
  });
  const jobId = new URL(page.url()).searchParams.get("job")!;
  expect(jobId).toBeTruthy();

  // From the changed turns, the run against its what-if.
  await page.getByRole("link", { name: `Compare with the recorded run (${REPLAYED})` }).click();
  await expect(page).toHaveURL(new RegExp(`/compare\\?a=${REPLAYED}&replay=${jobId}$`), { timeout: 30_000 });
  await expect(page.getByRole("heading", { level: 1, name: "Compare a run with its what-if" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Run A" })).toContainText(REPLAYED);
  await expect(page.getByTestId("what-if-label")).toHaveText(`${REPLAYED} · what-if (replay ${jobId.slice(0, 8)}: policy “${name}”)`);
  await expect(page.getByRole("link", { name: "Swap A and B" })).toHaveCount(0);
  await expect(page.getByTestId("first-difference")).toContainText(`First differing decision: turn ${expected[0].toLocaleString("en-US")}`);
  await expect(page.getByRole("region", { name: /^Context: bytes of the final request/ })).toBeVisible();

  // ] lands on the first differing decision, both decisions side by side; ] again on the next.
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
  await expect(page.getByTestId("findings-note")).toBeVisible();
  await expectNoAxeViolations(page, "run against its what-if", { soft: true });

  // The URL alone opens the same view; the turn opens in the replay's turn view, which links back at that turn.
  await page.goto(page.url());
  await expect(differences).toContainText(`turn ${expected[0].toLocaleString("en-US")}:`);
  await differences.getByRole("link", { name: "open in the replay (baseline vs what-if)" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Turn ${expected[0]}: baseline vs policy “${name}”` })).toBeVisible({
    timeout: 30_000,
  });
  await page.getByRole("link", { name: "Compare with the recorded run" }).click();
  await expect(page).toHaveURL(new RegExp(`/compare\\?a=${REPLAYED}&replay=${jobId}&turn=${expected[0]}$`));
  await expect(differences.getByRole("table")).toContainText("differs");

  // A run the replay did not replay is named.
  await page.goto(`/compare?a=${A}&replay=${jobId}`);
  await expect(page.getByRole("alert").filter({ hasText: "Cannot compare" })).toContainText(`run "${A}" is not one of the runs replay`);
});
