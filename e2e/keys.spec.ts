import { expect, test, type Page } from "@playwright/test";
import { openAccountMenu } from "./support/account-menu";
import { expectNoAxeViolations } from "./support/axe";
import { hydrated } from "./support/hydrated";
import { signInToDemo } from "./support/sign-in";
import { THEME_COOKIE } from "@/components/layout/theme";

/** A name no earlier run of the specs has used (the e2e database may be reused with E2E_BASE_URL). */
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

const keyTable = (page: Page) => page.getByRole("table", { name: "API keys, live ones first" });
/** A key's row; its cells (the name is the row header): Prefix, Scope, Made, Last used, Status. */
const keyCells = (page: Page, name: string) =>
  keyTable(page)
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name, exact: true }) })
    .getByRole("cell");

/** Makes a key on /keys as a person would and returns its secret, read from the box that shows it this once. */
async function makeKey(page: Page, name: string, scope: "Ingest only" | "Read" | "Admin"): Promise<string> {
  await (await hydrated(page.getByRole("textbox", { name: "Name" }))).fill(name);
  await page
    .getByRole("group", { name: "Scope" })
    .getByRole("radio", { name: new RegExp(`^${scope} —`) })
    .check();
  await page.getByRole("button", { name: "Make the key" }).click();
  const made = page.getByRole("status").filter({ hasText: `Key “${name}” made.` });
  const secret = (await made.getByLabel("The new key's secret").innerText()).trim();
  expect(secret).toMatch(/^cs_\S{20,}$/);
  return secret;
}

/** The sign-in page's key form, filled with `secret` (login.spec.ts). */
async function signInWithKey(page: Page, secret: string, next: string): Promise<void> {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Project API key").fill(secret);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

const logTable = (page: Page) => page.getByRole("table", { name: "Audit log, newest first" });
const logRows = (page: Page) => logTable(page).locator("tbody").getByRole("row");

test("API keys: an ingest key cannot sign in; a read key signs in to read only and its session ends when it is revoked; audited; axe", async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await context.addCookies([{ name: THEME_COOKIE, value: "light", url: baseURL! }]);
  await signInToDemo(page, "/experiments");
  await openAccountMenu(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/keys$/);
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  await expect(keyTable(page).getByRole("rowheader", { name: /this session's key$/ })).toHaveCount(1);

  // An ingest-only key, its secret on screen: axe in the light theme; in another browser it cannot sign in.
  const ingestName = unique("Keys spec ingest");
  const ingestSecret = await makeKey(page, ingestName, "Ingest only");
  await expect(keyCells(page, ingestName).nth(1)).toHaveText("Ingest only");
  await expectNoAxeViolations(page, "keys with a new secret shown, light theme", { soft: true });
  const other = await (await browser.newContext()).newPage();
  await signInWithKey(other, ingestSecret, "/runs");
  await expect(other.getByRole("alert").filter({ hasText: "That key cannot sign in" })).toContainText(
    "That key cannot sign in: this key's scope is ingest (",
  );
  await expect(other.getByRole("alert").filter({ hasText: "That key cannot sign in" })).toContainText("sign in with a read or admin key.");
  await expect(other).toHaveURL(/\/login\?/);

  // Dark theme (a reload: the ingest key's secret is gone for good), then a read key: listed without its secret.
  await context.addCookies([{ name: THEME_COOKIE, value: "dark", url: baseURL! }]);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(keyCells(page, ingestName).nth(1)).toHaveText("Ingest only");
  await expect(page.getByLabel("The new key's secret")).toHaveCount(0);
  const readName = unique("Keys spec read");
  const readSecret = await makeKey(page, readName, "Read");
  const read = keyCells(page, readName);
  await expect(read.nth(1)).toHaveText("Read");
  await expect(read.nth(3)).toHaveText("never");
  const prefix = (await read.first().innerText()).trim().replace(/…$/, "");
  expect(readSecret.startsWith(prefix) && readSecret.length > prefix.length, `secret ${readSecret} starts with prefix ${prefix}`).toBe(
    true,
  );
  await expect(keyTable(page)).not.toContainText(readSecret);
  await expect(keyTable(page)).not.toContainText(ingestSecret);
  await expectNoAxeViolations(page, "keys with a new secret shown, dark theme", { soft: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoAxeViolations(page, "keys with a new secret shown at 390 px, dark theme");

  // The read key signs in elsewhere, and may not manage keys.
  await signInWithKey(other, readSecret, "/keys");
  await expect(other).toHaveURL(/\/keys$/, { timeout: 15_000 });
  await expect(other.getByRole("alert").filter({ hasText: "Only an admin key manages keys" })).toContainText(
    "This session was opened with a read key",
  );
  await expect(keyTable(other)).toHaveCount(0);

  // Revoked (asked twice): its status says so, it was used, and the session opened with it is over.
  await (await hydrated(read.getByRole("button", { name: `Revoke ${readName}` }))).click();
  await read.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(read.nth(4)).toHaveText(/^revoked \S/);
  await expect(read.nth(3)).not.toHaveText("never");
  await other.reload();
  await expect(other).toHaveURL(/\/login\?next=%2Fkeys$/, { timeout: 15_000 });
  await other.context().close();

  // The audit log of keys, newest first: the revocation and both creations, by this browser session, no secret.
  await page.goto("/audit?target=key");
  const expected = [
    ["API key: revoke", readName],
    ["API key: create", readName],
    ["API key: create", ingestName],
  ];
  for (const [index, [action, name]] of expected.entries()) {
    const cells = logRows(page).nth(index).getByRole("cell");
    await expect(cells.nth(1), `audit row ${index}`).toHaveText(action, { timeout: index === 0 ? 30_000 : undefined });
    await expect(cells.nth(2), `audit row ${index}`).toContainText(name);
    await expect(cells.nth(3), `audit row ${index}`).toContainText("browser session");
  }
  await expect(logTable(page)).not.toContainText(readSecret);
});
