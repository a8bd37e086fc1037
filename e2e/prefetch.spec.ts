import { expect, test, type Page } from "@playwright/test";
import { signInToDemo } from "./support/sign-in";

/**
 * The pages prefetch their queries on the server, through the routes' loaders, under the keys the
 * client components use (architecture habit 7). A page whose prefetched data sits under another key
 * (or was read with other defaults) would have the browser read the API again right after
 * hydration: these pages must load without the browser reading any /api/v1 data.
 */

/** Opens a page afresh and returns every /api/v1 URL the browser asked for while it loaded and settled. */
async function apiReadsWhileLoading(page: Page, path: string, heading: string | RegExp): Promise<string[]> {
  // Signed in on a quick page: the first visit of a list can take longer than the sign-in's wait.
  await signInToDemo(page, "/copy/replay");
  const reads: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/")) reads.push(`${url.pathname}${url.search}`);
  });
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible({ timeout: 90_000 });
  await page.waitForLoadState("networkidle");
  return reads;
}

test.describe("server prefetch", () => {
  // A page may rebuild the demo runs' decisions on the server (npm start's demo load rebuilds them first).
  test.beforeEach(() => test.setTimeout(120_000));

  test("the runs list hydrates from its prefetch", async ({ page }) => {
    // Completed runs only: a live run in the list would be polled, which is not a refetch.
    expect(await apiReadsWhileLoading(page, "/runs?status=completed", "Runs")).toEqual([]);
  });

  test("the Reviewer audit hydrates from its prefetch (candidates, funnel, facets)", async ({ page }) => {
    expect(await apiReadsWhileLoading(page, "/reviewer?violations=1", "Reviewer audit")).toEqual([]);
  });

  test("a Reviewer page whose prefetch failed is read again by the browser, which shows the API's error", async ({ page }) => {
    // A cursor of an earlier format: the server's prefetch fails and is not sent; the browser asks the API itself.
    const stale = Buffer.from(JSON.stringify({ run: "gone", skip: 0 })).toString("base64url");
    const reads = await apiReadsWhileLoading(page, `/reviewer?cursor=${stale}`, "Reviewer audit");
    await expect(page.getByText("not a cursor this API gave out for sort=newest: use the nextCursor of the previous page")).toBeVisible({
      timeout: 10_000,
    });
    // Asked once more after the first failure (the browser's retry), and nothing else.
    expect(new Set(reads)).toEqual(new Set([`/api/v1/reviewer/candidates?cursor=${stale}&limit=50`]));
  });

  test("a run page hydrates from its prefetch; the browser reads only the timelines it preloads and the follow-up panel's data, once each", async ({
    page,
  }) => {
    const run = "etf-fees-voo-ivv-splg";
    const reads = await apiReadsWhileLoading(page, `/runs/${run}?from=10&to=30`, "Compare fees and holdings of VOO, IVV and SPLG");
    await expect(page.locator('[data-hydrated="true"]')).toBeAttached({ timeout: 15_000 });
    // The timeline is not embedded (it would be sent twice and hold back the page): the zoomed
    // window's and the whole run's (the brush and findings read it) are preloaded with the page.
    // The follow-up and fatigue panel, below the charts, reads its own.
    expect(reads.sort()).toEqual(
      [`/api/v1/runs/${run}/effectiveness`, `/api/v1/runs/${run}/timeline`, `/api/v1/runs/${run}/timeline?from=10&to=30`].sort(),
    );
  });

  test("the what-if replay page hydrates from its prefetch (versions, facets, recent replays, the matching count)", async ({ page }) => {
    expect(await apiReadsWhileLoading(page, "/copy/replay", /What-if replay/)).toEqual([]);
  });
});
