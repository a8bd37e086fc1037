import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { signInToDemo } from "./support/sign-in";

/**
 * Comments (docs/comments.md) on a demo run, clicked through: a run note in Markdown (previewed,
 * rendered, edited, deleted), a turn comment from the inspector, its mark on the notes lane, the
 * count in the runs list, and "Copy link" for a turn at its zoom (clipboard granted, and refused).
 * Whatever the spec writes it deletes again, so the demo data stays as the other specs expect.
 */
const RUN = "etf-fees-voo-ivv-splg";
const TURN = 3;

const demoKey = () => readFileSync(".cuescope/e2e/demo-key", "utf8").trim();

async function openRun(page: Page, query = ""): Promise<void> {
  await page.goto(`/runs/${RUN}${query}`);
  await expect(page.locator('[data-hydrated="true"]')).toBeAttached({ timeout: 15_000 });
}

test.afterAll(async ({ request }) => {
  // Leave nothing behind (a failed run of the spec included).
  const headers = { authorization: `Bearer ${demoKey()}` };
  const listed = await (await request.get(`/api/v1/runs/${RUN}/comments?limit=200`, { headers })).json();
  for (const comment of listed.comments ?? []) {
    if (comment.mine) await request.delete(`/api/v1/runs/${RUN}/comments/${comment.id}`, { headers });
  }
});

test("a run note in Markdown: previewed, rendered safely, edited and deleted", async ({ page }) => {
  test.setTimeout(90_000);
  await signInToDemo(page, `/runs/${RUN}`);
  await expect(page.locator('[data-hydrated="true"]')).toBeAttached({ timeout: 15_000 });
  const notes = page.getByRole("region", { name: "Notes" });
  await expect(notes.getByText("No notes on this run yet.")).toBeVisible();

  const field = notes.getByLabel("Add a note to the run");
  await field.fill(
    'Fees look **off** for `SPLG`\n\n- check the [fund page](https://example.com/splg)\n- compare\n\n<script>window.pwned = 1</script> <img src=x onerror="window.pwned = 2">',
  );
  await notes.getByRole("button", { name: "Preview" }).click();
  await expect(notes.getByRole("region", { name: "Add a note to the run: preview" }).locator("strong")).toHaveText("off");
  await notes.getByRole("button", { name: "Write" }).click();
  await notes.getByRole("button", { name: "Add comment" }).click();

  const note = notes.getByRole("listitem", { name: "Comment by demo key" });
  await expect(note.locator("strong")).toHaveText("off");
  await expect(note.locator("code")).toHaveText("SPLG");
  await expect(note.getByRole("listitem")).toHaveText(["check the fund page", "compare"]);
  const link = note.getByRole("link", { name: "fund page" });
  await expect(link).toHaveAttribute("href", "https://example.com/splg");
  await expect(link).toHaveAttribute("rel", "noopener noreferrer nofollow");
  // Raw HTML is shown as text and never runs.
  await expect(note).toContainText("<script>window.pwned = 1</script>");
  await expect(note.locator("script, img")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
  await expect(note.locator("time").first()).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  await expect(field).toHaveValue("");

  // Edit your own.
  await note.getByRole("button", { name: /^Edit your comment/ }).click();
  const edit = note.getByLabel("Edit your comment");
  await edit.fill("Fees are *fine* after all");
  await note.getByRole("button", { name: "Save" }).click();
  await expect(note.locator("em")).toHaveText("fine");
  await expect(note).toContainText("edited");

  // Delete it (asked once more first).
  await note.getByRole("button", { name: /^Delete your comment/ }).click();
  await note.getByRole("button", { name: "Yes, delete" }).click();
  await expect(notes.getByText("No notes on this run yet.")).toBeVisible();
});

test("a turn comment from the inspector: on the notes lane, selectable, and counted in the runs list", async ({ page }) => {
  test.setTimeout(90_000);
  await signInToDemo(page, `/runs/${RUN}?turn=${TURN}`);
  await expect(page.locator('[data-hydrated="true"]')).toBeAttached({ timeout: 15_000 });
  const section = page.getByRole("region", { name: "Comments on this turn" });
  await expect(section.getByRole("heading", { level: 3 })).toHaveText(`Comments on turn ${TURN}`);
  await expect(section.getByText(`No comments on turn ${TURN} yet.`)).toBeVisible();
  await section.getByLabel("Add a comment on this turn").fill("The reminder was **dropped** here");
  await section.getByRole("button", { name: "Add comment" }).click();
  await expect(section.getByRole("listitem", { name: "Comment by demo key" }).locator("strong")).toHaveText("dropped");

  // The notes lane marks the turn; a click on the mark selects it.
  const lane = page.getByRole("region", { name: /^Notes lane: 1 turn has comments/ });
  const mark = lane.getByTitle(`1 comment on turn ${TURN}`);
  await expect(mark).toBeVisible();
  await page.getByRole("button", { name: "Close the turn inspector" }).click();
  await expect(page).not.toHaveURL(/[?&]turn=/);
  await mark.click();
  await expect(page).toHaveURL(new RegExp(`[?&]turn=${TURN}(&|$)`));
  await expect(page.getByRole("region", { name: "Comments on this turn" })).toContainText("The reminder was dropped here");

  // The runs list counts the run's comments.
  await page.goto("/runs");
  const row = page.getByRole("row").filter({ has: page.getByText(RUN, { exact: true }) });
  await expect(row.getByTitle("Notes: 1 comment")).toHaveText(/✎\s*1\s*comment/);

  // Deleted again, the count goes back.
  await openRun(page, `?turn=${TURN}`);
  const again = page.getByRole("region", { name: "Comments on this turn" });
  await again.getByRole("button", { name: /^Delete your comment/ }).click();
  await again.getByRole("button", { name: "Yes, delete" }).click();
  await expect(again.getByText(`No comments on turn ${TURN} yet.`)).toBeVisible();
  await expect(page.getByRole("region", { name: /^Notes lane: no turn has comments yet/ })).toBeVisible();
});

test("Copy link copies this turn at this zoom, and the link opens it", async ({ page, context, baseURL }) => {
  test.setTimeout(90_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await signInToDemo(page, `/runs/${RUN}?from=0&to=10&turn=${TURN}`);
  await expect(page.locator('[data-hydrated="true"]')).toBeAttached({ timeout: 15_000 });
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByText("Copied: a link to turn")).toHaveText(`Copied: a link to turn ${TURN} at this zoom`);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const url = new URL(copied);
  expect(`${url.origin}${url.pathname}`).toBe(`${baseURL}/runs/${RUN}`);
  expect(Object.fromEntries(url.searchParams)).toEqual({ from: "0", to: "10", turn: String(TURN) });

  // Opened in a new tab of the same browser (signed in), it shows the turn at the zoom.
  const opened = await context.newPage();
  await opened.goto(copied);
  await expect(opened.getByRole("complementary", { name: `Turn inspector: turn ${TURN}` })).toBeVisible({ timeout: 15_000 });
  await expect(opened.locator('[data-hydrated="true"]')).toBeAttached({ timeout: 15_000 });
  // The zoom stays in the URL (the page keeps its view there) and so in the charts' window.
  await expect(opened).toHaveURL(copied);
  await opened.close();
});

test("Copy link falls back to a selected field when the clipboard is refused", async ({ page }) => {
  test.setTimeout(90_000);
  await page.addInitScript(() => {
    Object.defineProperty(navigator, "clipboard", {
      configurable: true,
      value: { writeText: () => Promise.reject(new DOMException("denied", "NotAllowedError")) },
    });
  });
  await signInToDemo(page, `/runs/${RUN}?turn=${TURN}`);
  await expect(page.locator('[data-hydrated="true"]')).toBeAttached({ timeout: 15_000 });
  await page.getByRole("button", { name: "Copy link" }).click();
  const field = page.getByLabel("The browser did not allow copying; copy this link:");
  await expect(field).toHaveValue(new RegExp(`^http://[^/]+/runs/${RUN}\\?turn=${TURN}$`));
  expect(await field.evaluate((input: HTMLInputElement) => input.selectionEnd! - input.selectionStart!)).toBe(
    (await field.inputValue()).length,
  );
});
