import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import type { TRunDecisions, TRunSummary } from "@/lib/contracts";
import { formatBytes, formatNumber, formatTurnCount } from "@/lib/format";
import { partsBreakdown } from "@/lib/run-view/context-parts";
import { checkText } from "@/lib/run-view/projection-text";
import { signInToDemo } from "./support/sign-in";

const RUN = "etf-fees-voo-ivv-splg";
const LIVE_RUN = "etf-sector-weights";
/** A demo run that sends no context parts (telemetry v1 as it was). */
const V1_RUN = "etf-quick-compare";

function meterPanel(page: Page, title: string): Locator {
  return page.getByRole("region", { name: new RegExp(`^${title}\\b`) });
}

/** The explorer has hydrated: charts are drawn and clicks and drags are handled. */
async function interactive(page: Page) {
  await expect(page.locator('[data-hydrated="true"]')).toBeAttached({ timeout: 15_000 });
}

/** Scrolls an element to the middle of the viewport (clear of the sticky site header). */
async function centre(target: Locator) {
  await target.evaluate((el) => el.scrollIntoView({ block: "center" }));
}

/** Clicks at a fraction of an element's width (its vertical middle). */
async function clickAt(page: Page, target: Locator, fraction: number) {
  const box = (await target.boundingBox())!;
  await page.mouse.click(box.x + box.width * fraction, box.y + box.height / 2);
}

test.describe("run page", () => {
  test("header in units, four meter charts, legend, turn selection, findings links and zoom", async ({ page }, testInfo) => {
    // A long walk through the page with two full-page screenshots: more than the default 30 s on a busy machine.
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInToDemo(page, `/runs/${RUN}`);
    await interactive(page);

    // Header: task, who, status with a word, turns, and every limit in its own unit.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Compare fees and holdings of VOO, IVV and SPLG");
    await expect(page.getByTestId("run-status")).toHaveText(/^. ?(completed|stopped|failed)$/);
    await expect(page.getByText("420 turns", { exact: false }).first()).toBeVisible();
    const limits = page.getByLabel("Policy limits");
    await expect(limits).toContainText(/\d[\d,]* requests \(\d+ reserved\)/);
    await expect(limits).toContainText(/ min/);
    await expect(limits).toContainText("200,000 B");
    await expect(limits).toContainText("4 edits/block");
    await expect(limits).toContainText("review every 10 turns / 10 min");
    await expect(limits).toContainText("Reviewer auto-review on, ≥ 8 requests left");

    // Four charts, each with its unit in its title and on its value axis.
    const charts: [string, string, string][] = [
      ["Requests", "count", "requests"],
      ["Time", "minutes", "min"],
      ["Context", "bytes of the final request", "bytes"],
      ["Edit quota", "edits, per block", "edits"],
    ];
    for (const [title, unit, axis] of charts) {
      const panel = meterPanel(page, title);
      await expect(panel.getByRole("heading", { level: 2 })).toContainText(unit);
      await expect(panel.locator("svg.recharts-surface").first()).toBeVisible();
      await expect(
        panel
          .locator(".recharts-label")
          .filter({ hasText: new RegExp(`^${axis}$`) })
          .first(),
      ).toBeAttached();
    }
    await expect(meterPanel(page, "Edit quota").locator("svg.recharts-surface")).toHaveCount(5);

    // The legend: every status by mark and word.
    const legend = page.getByRole("list", { name: "Legend" });
    for (const [status, mark] of Object.entries({ delivered: "●", dropped: "✕", failed: "▲", uncertain: "◆", pending: "○" })) {
      await expect(legend).toContainText(mark);
      await expect(legend).toContainText(status);
    }
    // Reminder marks say stage and status; a dropped one says bytes needed vs free.
    await expect(page.getByTitle(/reminder( \([^)]*\))?, stage \d+ · dropped: needs [\d,]+ B, -?[\d,]+ B free/).first()).toBeAttached();

    // Lanes: Reviewer and notifications, apart from the reminders.
    await expect(page.getByRole("heading", { name: /^Reviewer/ })).toBeVisible();
    await expect(page.getByRole("heading", { name: /^User notifications/ })).toBeVisible();

    // Clicking a chart selects a turn: ?turn=N, and the inspector shows it.
    const requestsPlot = meterPanel(page, "Requests").getByRole("img");
    await centre(requestsPlot);
    await clickAt(page, requestsPlot, 0.5);
    await expect(page).toHaveURL(/[?&]turn=\d+/);
    const picked = new URL(page.url()).searchParams.get("turn");
    await expect(page.getByRole("complementary", { name: "Selected turn" }).getByLabel(`Turn ${picked}`)).toBeVisible();

    // Findings view: grouped by code with the rule; a turn link lands on that turn.
    const findings = page.getByRole("region", { name: /^Findings/ });
    await expect(findings.getByRole("heading", { level: 2 })).toHaveText(/Findings \(\d+\)/);
    const link = findings.getByRole("link").nth(1);
    const linkTurn = (await link.textContent())!.replace(/,/g, "");
    await link.click();
    await expect(page).toHaveURL(new RegExp(`[?&]turn=${linkTurn}(&|$)`));
    await expect(page.getByRole("complementary", { name: "Selected turn" }).getByLabel(`Turn ${linkTurn}`)).toBeVisible();

    await page.mouse.move(0, 0);
    await page.screenshot({ path: path.join(testInfo.project.outputDir, "run-page.png"), fullPage: true });

    // Zoom: drag across the brush → ?from=&to= and the window is fetched.
    const brush = page.getByTestId("turn-brush");
    await centre(brush);
    const box = (await brush.boundingBox())!;
    const timeline = page.waitForResponse((r) => r.url().includes("/timeline?") && r.url().includes("from="));
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect(page).toHaveURL(/[?&]from=\d+&to=\d+/);
    expect((await timeline).ok()).toBe(true);
    await expect(page.getByTestId("turn-window")).toContainText(/showing turns [\d,]+–[\d,]+ of turns 0–419/);
    await expect(meterPanel(page, "Context").locator("svg.recharts-surface").first()).toBeVisible();
    await page.mouse.move(0, 0);
    await page.screenshot({ path: path.join(testInfo.project.outputDir, "run-page-zoomed.png"), fullPage: true });

    await page.getByRole("button", { name: "Whole run" }).click();
    await expect(page).not.toHaveURL(/from=/);
  });

  test("a 2,000-turn run stays readable, and a drag across a chart zooms it", async ({ page }, testInfo) => {
    await signInToDemo(page, "/runs/etf-holdings-overlap");
    await interactive(page);
    await expect(page.getByTestId("turn-window")).toContainText("thinned");
    const plot = meterPanel(page, "Context").getByRole("img");
    await centre(plot);
    const box = (await plot.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect(page).toHaveURL(/[?&]from=\d+&to=\d+/);
    await expect(page.getByTestId("turn-window")).toContainText("every turn drawn");
    await page.mouse.move(0, 0);
    await page.screenshot({ path: path.join(testInfo.project.outputDir, "run-page-2000.png"), fullPage: true });
  });

  test("a live run is polled every 5 s and keeps the selected turn", async ({ page }) => {
    await signInToDemo(page, `/runs/${LIVE_RUN}?turn=12`);
    await interactive(page);
    await expect(page.getByTestId("run-status")).toHaveText(/live/);
    const inspector = page.getByRole("complementary", { name: "Selected turn" });
    await expect(inspector.getByLabel("Turn 12")).toBeVisible();
    await page.waitForResponse((r) => r.url().includes(`/api/v1/runs/${LIVE_RUN}/timeline`), { timeout: 12_000 });
    await page.waitForResponse((r) => r.url().endsWith(`/api/v1/runs/${LIVE_RUN}`), { timeout: 12_000 });
    await expect(page).toHaveURL(/[?&]turn=12(&|$)/);
    await expect(inspector.getByLabel("Turn 12")).toBeVisible();
  });

  test("what filled the request at the turn a reminder was dropped (contract §11), and a run without parts keeps today's view", async ({
    page,
    request,
  }) => {
    await signInToDemo(page, `/runs/${V1_RUN}`);
    await interactive(page);
    await expect(meterPanel(page, "Context").getByRole("img", { name: /^Bytes of the final request per turn/ })).toBeVisible();
    await expect(page.getByTestId("context-parts")).toHaveCount(0);

    // The turn is found through the API, its expected bytes worked out here from the decisions.
    const demoKey = readFileSync(".cuescope/e2e/demo-key", "utf8").trim();
    const response = await request.get(`/api/v1/runs/${RUN}/decisions`, { headers: { authorization: `Bearer ${demoKey}` } });
    expect(response.ok()).toBe(true);
    const decisions = (await response.json()) as TRunDecisions;
    const turn = decisions.turns.find((t) => t.contextParts && t.reminders.some((r) => r.status === "dropped"));
    expect(turn, "the demo run has a dropped reminder on a turn with parts").toBeDefined();
    const parts = turn!.contextParts!;
    const dropped = turn!.reminders.filter((r) => r.status === "dropped");

    await page.goto(`/runs/${RUN}?turn=${turn!.turn}`);
    await interactive(page);
    const chart = page.getByTestId("context-parts");
    await expect(chart.getByRole("heading", { name: /^What filled the request/ })).toBeVisible();
    await expect(chart.getByRole("list", { name: "Parts of the request" })).toContainText("earlier reminders");
    // Its table view lists the selected turn's parts in bytes.
    await chart.getByRole("button", { name: "View as table" }).click();
    const row = chart
      .getByRole("row")
      .filter({ has: page.getByRole("rowheader", { name: turn!.turn.toLocaleString("en-US"), exact: true }) });
    await expect(row).toContainText(formatBytes(parts.history!));

    const inspector = page.getByRole("complementary", { name: `Turn inspector: turn ${turn!.turn.toLocaleString("en-US")}` });
    const byPart = inspector.getByRole("list", { name: "The final request by part" });
    await expect(byPart.getByRole("listitem")).toHaveCount(partsBreakdown(turn!.requiredBytes, parts).length);
    await expect(byPart.getByRole("listitem").filter({ hasText: /^history/ })).toContainText(formatBytes(parts.history!));
    await expect(inspector).toContainText(
      `${dropped.length} dropped for lack of room (${formatBytes(dropped.reduce((n, r) => n + r.bytes, 0))})`,
    );
  });

  test("a live run says what runs out next at its recent pace, and the runs list names the same limit", async ({ page, request }) => {
    const demoKey = readFileSync(".cuescope/e2e/demo-key", "utf8").trim();
    const response = await request.get(`/api/v1/runs/${LIVE_RUN}`, { headers: { authorization: `Bearer ${demoKey}` } });
    const summary = (await response.json()) as TRunSummary;
    const projection = summary.projection!;
    const decisions = (await (
      await request.get(`/api/v1/runs/${LIVE_RUN}/decisions`, { headers: { authorization: `Bearer ${demoKey}` } })
    ).json()) as TRunDecisions;
    expect(projection.lastTurn).toBe(decisions.turns.at(-1)!.turn);
    // The pace is fitted over the readings of the run's last 30 rebuilt turns.
    const requests = projection.meters.find((m) => m.meter === "requests")!;
    expect([requests.fromTurn, requests.toTurn]).toEqual([decisions.turns.at(-30)!.turn, projection.lastTurn]);

    await signInToDemo(page, `/runs?q=${LIVE_RUN}`);
    const first = projection.first!;
    await expect(page.getByTestId("next-limit")).toHaveText(
      `· next limit: ${first.meter} in ~${formatTurnCount(first.turn - projection.lastTurn)}`,
    );
    await page.goto(`/runs/${LIVE_RUN}`);
    await interactive(page);
    const line = page.getByTestId(`projection-requests`);
    await expect(line).toContainText(`over turns ${formatNumber(requests.fromTurn)}–${formatNumber(requests.toTurn)}`);
    await expect(page.getByTestId(`projection-${first.meter}`)).toContainText("Runs out first.");
    // The charts reach past the last turn with the projection and its band, marked as projected.
    await expect(page.locator('[data-meter="meter-requests"] svg text').filter({ hasText: /^projected$/ })).toBeVisible();
  });

  test("a finished run says how far off its projection was each time a meter reached a stage", async ({ page, request }) => {
    const demoKey = readFileSync(".cuescope/e2e/demo-key", "utf8").trim();
    const auth = { headers: { authorization: `Bearer ${demoKey}` } };
    const summary = (await (await request.get(`/api/v1/runs/${RUN}`, auth)).json()) as TRunSummary;
    const decisions = (await (await request.get(`/api/v1/runs/${RUN}/decisions`, auth)).json()) as TRunDecisions;
    const checks = summary.projectionCheck!.checks.filter((c) => c.meter === "requests");
    // Each check is the first turn the requests meter was at that stage (read off the decisions here),
    // projected from the last turn at least 30 turns before it.
    const firstAt = (stage: number) => decisions.turns.find((t) => (t.meters.requests?.stage ?? 0) >= stage)!.turn;
    expect(checks.length).toBeGreaterThan(0);
    for (const c of checks.filter((c) => c.stage !== null)) {
      expect(c.reachedTurn).toBe(firstAt(c.stage!));
      expect(c.madeAtTurn).toBeLessThanOrEqual(c.reachedTurn - 30);
    }

    await signInToDemo(page, `/runs/${RUN}`);
    await interactive(page);
    const list = page.getByTestId("projection-check-requests");
    await expect(list.getByRole("listitem")).toHaveCount(checks.length);
    await expect(list.getByRole("listitem").first()).toHaveText(checkText(checks[0]));
    await expect(list).toContainText(`${checks.filter((c) => c.inside).length} of ${checks.length} reached inside its 95% interval`);
  });

  test("an unknown run is a 404", async ({ page }) => {
    await signInToDemo(page, `/runs/${RUN}`);
    const response = await page.goto("/runs/no-such-run");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Run not found" })).toBeVisible();
  });
});
