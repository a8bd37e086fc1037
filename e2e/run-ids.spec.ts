import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { runPath } from "@/lib/queries/paths";
import { endedEvent, startedEvent, turnEvents } from "@/lib/server/testing/events";
import { signInToDemo } from "./support/sign-in";

/**
 * Run ids are 1–128 characters of any kind (contract §4). Runs whose ids hold every printable ASCII
 * character, non-ASCII text, percent signs, slashes and dot segments are sent through the API
 * with the demo key; each run page opens from the runs list and by its URL, and the turn
 * inspector moves between turns of such runs.
 */
const PRINTABLE_ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("");
const TAG = "Run ids e2e";

const RUN_IDS = [
  // Every printable ASCII character, in ids of 24 (the last 23) characters.
  ...Array.from({ length: 4 }, (_, i) => PRINTABLE_ASCII.slice(i * 24, i * 24 + 24)),
  PRINTABLE_ASCII.split("").reverse().join(""),
  "run with space",
  "ünïcødé-运行-🚀",
  "a%2Fb",
  "a/b",
  "..",
  ".",
  "%",
  "?x=1#y",
  ": % + ; & = , @ $ <",
  "~",
];
const taskOf = (index: number) => `${TAG} ${String(index).padStart(2, "0")}`;
const TURNS = 4;

const demoKey = () => readFileSync(".cuescope/e2e/demo-key", "utf8").trim();

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  const headers = { authorization: `Bearer ${demoKey()}` };
  // The first runs list of a fresh server rebuilds every demo run: done here, not during sign-in.
  expect((await request.get("/api/v1/runs?limit=50", { headers, timeout: 150_000 })).status()).toBe(200);
  const batch = RUN_IDS.flatMap((runId, index) => {
    const prefix = `run-ids-${index}`;
    const events = [
      startedEvent(runId, `${prefix}-start`, { task: taskOf(index) }),
      ...Array.from({ length: TURNS }, (_, turn) => turnEvents(runId, turn, 2 + turn, 4000 + turn * 100)).flat(),
      endedEvent(runId),
    ];
    return events.map((event, n) => ({ ...event, id: `${prefix}-${n}` }));
  });
  const response = await request.post("/api/v1/ingest", { headers, data: { batch } });
  expect(response.status()).toBe(207);
  expect((await response.json()).summary.error).toBe(0);
});

async function expectRunPage(page: Page, index: number): Promise<void> {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(taskOf(index), { timeout: 15_000 });
}

test("every run page opens from the runs list", async ({ page }) => {
  test.setTimeout(180_000);
  await signInToDemo(page, "/runs");
  for (const [index, runId] of RUN_IDS.entries()) {
    await page.goto(`/runs?q=${encodeURIComponent(TAG)}`);
    const link = page.getByRole("table", { name: "Runs" }).getByRole("link", { name: taskOf(index), exact: true });
    await expect(link, JSON.stringify(runId)).toHaveAttribute("href", runPath(runId));
    await link.click();
    await expectRunPage(page, index);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(runPath(runId));
  }
});

test("every run page opens by its URL, and an id that does not exist is a 404", async ({ page }) => {
  test.setTimeout(120_000);
  await signInToDemo(page, "/runs");
  for (const [index, runId] of RUN_IDS.entries()) {
    const response = await page.goto(runPath(runId));
    expect(response?.status(), JSON.stringify(runId)).toBe(200);
    await expectRunPage(page, index);
  }
  // Decoded exactly once: `a%252Fb` is the run "a%2Fb", and the run "a%2Fb" is not "a/b".
  await page.goto("/runs/a%252Fb");
  await expectRunPage(page, RUN_IDS.indexOf("a%2Fb"));
  for (const missing of ["/runs/a%25252Fb", "/runs/%F0%9F%9A%80", "/runs/a%ZZ"]) {
    const response = await page.goto(missing);
    expect(response?.status(), missing).toBeGreaterThanOrEqual(400);
    expect(response?.status(), missing).toBeLessThan(500);
  }
});

test("the turn inspector opens on a turn and moves between turns of runs with odd ids", async ({ page }) => {
  test.setTimeout(120_000);
  await signInToDemo(page, "/runs");
  for (const runId of [PRINTABLE_ASCII.slice(0, 24), "..", "ünïcødé-运行-🚀"]) {
    const index = RUN_IDS.indexOf(runId);
    await page.goto(runPath(runId, { turn: 1 }));
    await expectRunPage(page, index);
    const inspector = (turn: number) => page.getByRole("complementary", { name: `Turn inspector: turn ${turn}` });
    await expect(inspector(1).getByRole("heading", { level: 2 }), JSON.stringify(runId)).toHaveText("Turn 1");
    // The next turn is fetched by the browser (through the API, with the id encoded the same way).
    await page.locator("body").click({ position: { x: 1, y: 1 } });
    await page.keyboard.press("ArrowRight");
    await expect(inspector(2).getByRole("heading", { level: 2 })).toHaveText("Turn 2");
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(runPath(runId, { turn: 2 }));
    // The URL the inspector left behind reopens the same run and turn.
    await page.reload();
    await expectRunPage(page, index);
    await expect(inspector(2).getByRole("heading", { level: 2 })).toHaveText("Turn 2");
  }
});
