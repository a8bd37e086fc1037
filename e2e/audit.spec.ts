import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { hydrated } from "./support/hydrated";
import { signInToDemo } from "./support/sign-in";
import { THEME_COOKIE } from "@/components/layout/theme";
import type { TAuditEntry } from "@/lib/contracts";

/** A name no earlier run of the specs has used (the e2e database may be reused with E2E_BASE_URL). */
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

/** Saves a copy version and makes it the project default, with the page's own session (POST /api/v1/copy-versions). */
async function saveDefaultCopy(page: Page, name: string): Promise<string> {
  const { status, id } = await page.evaluate(async (name) => {
    const response = await fetch("/api/v1/copy-versions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name, copy: {}, makeDefault: true }),
    });
    return { status: response.status, id: (await response.json()).id as string };
  }, name);
  expect(status, `saving copy version “${name}”`).toBe(201);
  return id;
}

const logTable = (page: Page) => page.getByRole("table", { name: "Audit log, newest first" });
const logRows = (page: Page) => logTable(page).locator("tbody").getByRole("row");
/** Each row's Action cell (columns: When, Action, Target, Who, From address, Change). */
const actionCells = (page: Page) => logTable(page).locator("tbody td:nth-child(2)");
/** A row's Change cell's before → after of one field. */
const changeOf = (page: Page, row: number, field: string) =>
  logRows(page)
    .nth(row)
    .getByRole("cell")
    .nth(5)
    .locator("div", { has: page.locator("dt", { hasText: new RegExp(`^${field}$`) }) })
    .locator("dd");

test.describe("Audit log", () => {
  test("a default change: in the log with who, where and before → after; filtered, a target's history, exported; axe", async ({
    page,
    context,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await signInToDemo(page, "/experiments");
    // Two versions made default in turn: the second change's before is the first one.
    const [first, second] = [unique("Audit spec copy A"), unique("Audit spec copy B")];
    const firstId = await saveDefaultCopy(page, first);
    const secondId = await saveDefaultCopy(page, second);

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible({ timeout: 30_000 });
    await expect(page).toHaveURL(/\/audit$/);

    // Newest first: the default change, then the save it came with (one transaction).
    await expect(actionCells(page).first()).toHaveText("Copy version: make default");
    await expect(actionCells(page).nth(1)).toHaveText("Copy version: create");
    const newest = logRows(page).first().getByRole("cell");
    await expect(newest.nth(2)).toContainText(second);
    await expect(newest.nth(3)).toContainText("browser session");
    await expect(newest.nth(4)).toHaveText(/127\.0\.0\.1/);
    await expect(changeOf(page, 0, "name")).toHaveText(`"${first}" → became "${second}"`);
    await expect(changeOf(page, 0, "id")).toHaveText(`"${firstId}" → became "${secondId}"`);
    await expect(logRows(page).nth(1).getByRole("cell").nth(2)).toContainText(second);

    // Only default changes of copy: the URL says so and every row is one, both of ours first.
    const action = await hydrated(page.getByRole("combobox", { name: /^Action/ }));
    await action.selectOption({ label: "Copy version: make default" });
    await expect(page).toHaveURL(/[?&]action=copyVersion\.makeDefault(&|$)/);
    await expect.poll(async () => [...new Set(await actionCells(page).allTextContents())]).toEqual(["Copy version: make default"]);
    await expect(logRows(page).nth(1).getByRole("cell").nth(2)).toContainText(first);

    // One target's history: the second version's save and its default change, nothing else.
    await logRows(page)
      .first()
      .getByRole("link", { name: `History of copy version ${second}` })
      .click();
    await expect(page).toHaveURL(new RegExp(`[?&]targetId=${secondId}(&|$)`));
    expect(new URL(page.url()).searchParams.get("target")).toBe("copyVersion");
    expect(new URL(page.url()).searchParams.has("action")).toBe(false);
    await expect(actionCells(page)).toHaveText(["Copy version: make default", "Copy version: create"]);
    await expect(page.getByRole("list", { name: "Other filters" })).toContainText(`Target ${secondId}`);

    // Back to everything: the target filter cleared (and its id with it).
    await (await hydrated(page.getByRole("combobox", { name: /^Target/ }))).selectOption({ label: "Anything" });
    await expect(page).toHaveURL(/\/audit$/);
    await expect(page.getByRole("list", { name: "Other filters" })).toHaveCount(0);
    await expect(actionCells(page).nth(1)).toHaveText("Copy version: create");

    // The JSON export over the same (no) filters starts with the row shown first.
    const href = await page.getByRole("link", { name: "JSON", exact: true }).getAttribute("href");
    const response = await page.request.get(href!);
    expect(response.status()).toBe(200);
    const entries = (await response.json()) as TAuditEntry[];
    expect(entries[0]).toMatchObject({
      action: "copyVersion.makeDefault",
      target: { kind: "copyVersion", id: secondId, name: second },
      actor: { kind: "session", name: (await newest.nth(3).getByRole("link").innerText()).trim() },
      address: (await newest.nth(4).innerText()).trim(),
      before: { id: firstId, name: first },
      after: { id: secondId, name: second },
    });

    // WCAG 2.2 AA in both themes (the theme cookie, as the account menu sets it), and on a phone.
    for (const theme of ["light", "dark"] as const) {
      await context.addCookies([{ name: THEME_COOKIE, value: theme, url: baseURL! }]);
      await page.reload();
      await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
      await expect(actionCells(page).first()).toHaveText("Copy version: make default");
      await expectNoAxeViolations(page, `audit log, ${theme} theme`, { soft: true });
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(actionCells(page).first()).toHaveText("Copy version: make default");
    await expectNoAxeViolations(page, "audit log at 390 px, dark theme");
  });

  test("a bad filter in the URL is named in an alert", async ({ page }) => {
    await signInToDemo(page, "/audit?action=nope");
    const alert = page.getByRole("alert").filter({ hasText: "The audit log could not be loaded" });
    // The API's 400 names the parameter and what it may be (the browser asks once more before showing it).
    await expect(alert).toContainText("query.action: expected one of copyVersion.create", { timeout: 15_000 });
    await expect(logTable(page)).toHaveCount(0);
  });
});
