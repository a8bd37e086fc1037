import { readFileSync } from "node:fs";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { THEME_COOKIE } from "@/components/layout/theme";
import { openAccountMenu } from "./support/account-menu";
import { expectNoAxeViolations } from "./support/axe";
import { E2E_SETUP_LINK } from "./support/targets";

/**
 * The team story of issue 25, end to end in Chromium against the real OpenID provider started by
 * playwright.config.ts (e2e/support/oidc-provider.ts): the team lead claims the server with the
 * setup link the server wrote at start, signing in through single sign-on; invites a colleague as
 * a viewer; the colleague joins with a password and can change nothing, through the pages or the
 * API; the lead changes the default copy and finds it in the audit log under their name; the lead
 * issues a password reset link. The setup link works once, so these steps run in order, once.
 */
test.describe.configure({ mode: "serial", retries: 0 });

async function newPage(browser: Browser, baseURL: string, theme: "light" | "dark", width = 1366): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width, height: 900 } });
  await context.addCookies([{ name: THEME_COOKIE, value: theme, url: baseURL }]);
  return context.newPage();
}

const h1 = (page: Page, name: string | RegExp) => page.getByRole("heading", { level: 1, name });

test("a team lead signs in through SSO, invites a viewer who can change nothing, and sees who changed the default copy", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const lead = await newPage(browser, baseURL!, "dark");

  // 1. The setup link the server printed, claimed through single sign-on.
  const setupLink = readFileSync(E2E_SETUP_LINK, "utf8").trim();
  await lead.goto(new URL(setupLink).pathname + new URL(setupLink).search);
  await expect(h1(lead, "Set up Cuescope")).toBeVisible();
  await expectNoAxeViolations(lead, "setup page (dark)", { soft: true });
  await lead.getByRole("button", { name: "Continue with Example SSO" }).click();
  // The provider's own sign-in and consent pages (any password: a development provider).
  await lead.locator('input[name="login"]').fill("lead");
  await lead.locator('input[name="password"]').fill("anything");
  await lead.getByRole("button", { name: /sign-?in/i }).click();
  await lead.getByRole("button", { name: /continue/i }).click();
  await expect(lead.getByText("You are signed in as Lead (SSO) (lead@example.com).")).toBeVisible({ timeout: 15_000 });
  await lead.getByRole("button", { name: "Become the administrator" }).click();
  await expect(h1(lead, "Members of demo")).toBeVisible({ timeout: 15_000 });
  const leadRow = lead.getByRole("table", { name: "Members by name" }).getByRole("row", { name: /Lead \(SSO\)/ });
  await expect(leadRow).toContainText("single sign-on");

  // 2. A viewer invitation; the link is shown once.
  await lead.getByRole("radio", { name: /^Viewer/ }).check();
  await lead.getByLabel("For whom (optional)").fill("Sam");
  await lead.getByRole("button", { name: "Make an invitation link" }).click();
  const invitation = await lead.getByLabel("The invitation link").textContent();
  expect(invitation).toMatch(/\/invite\?token=/);
  await expect(lead.getByRole("table", { name: "Invitations, newest first" })).toContainText("pending until");
  await expectNoAxeViolations(lead, "members page with a new invitation link (dark)", { soft: true });

  // 3. The colleague joins with a password, at 390 px in the light theme.
  const sam = await newPage(browser, baseURL!, "light", 390);
  await sam.goto(new URL(invitation!).pathname + new URL(invitation!).search);
  await expect(h1(sam, "Join demo")).toBeVisible();
  await expect(sam.getByText("invites you to demo as a viewer")).toBeVisible();
  await expectNoAxeViolations(sam, "invitation page (light, 390 px)", { soft: true });
  await sam.getByLabel("Your name").fill("Sam");
  await sam.getByLabel("Email").fill("sam@example.com");
  await sam.getByLabel("Password").fill("short");
  await sam.getByRole("button", { name: "Create the account and join demo" }).click();
  // The browser refuses a password under the minimum before the server sees it.
  await expect(sam).toHaveURL(/\/invite\?token=/);
  await sam.getByLabel("Password").fill("sam's long passphrase");
  await sam.getByRole("button", { name: "Create the account and join demo" }).click();
  await expect(sam).toHaveURL(/\/runs$/, { timeout: 15_000 });

  // 4. A viewer changes nothing: the members page has no controls, and the API refuses a change.
  await sam.goto("/members");
  await expect(sam.getByText("Only an admin changes members: you can see who is here.")).toBeVisible();
  await expect(sam.getByRole("note").filter({ hasText: "You are a viewer in demo" })).toBeVisible();
  await expect(sam.getByRole("button", { name: "Make an invitation link" })).toHaveCount(0);
  await expectNoAxeViolations(sam, "members page as a viewer (light, 390 px)", { soft: true });
  const refused = await sam.evaluate(async () => {
    const response = await fetch("/api/v1/copy-versions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "viewer's try", copy: {} }),
    });
    return { status: response.status, message: ((await response.json()) as { error: { message: string } }).error.message };
  });
  expect(refused).toEqual({
    status: 403,
    message: "your role in demo is viewer (reads everything, changes nothing): this change needs the member or admin role",
  });

  // 5. The lead changes the default copy and finds it in the audit log under their name.
  await lead.goto("/copy");
  const name = `Team default ${Date.now()}`;
  await lead.getByRole("textbox", { name: "Template context · any stage" }).fill("Context {percent}% full.");
  const save = lead.getByRole("form", { name: "Save as a new version" });
  await save.getByLabel("Name").fill(name);
  await save.getByRole("button", { name: "Save as new version" }).click();
  await expect(save.getByRole("status")).toContainText(`Saved “${name}”`);
  const row = lead.getByRole("table", { name: "Copy versions" }).locator(`tr[data-version="${name}"]`);
  await row.getByRole("button", { name: "Make default" }).click();
  await expect(row).toContainText("project default");

  await sam.goto("/audit?action=copyVersion.makeDefault");
  const entry = sam.getByRole("table").getByRole("row").filter({ hasText: name }).first();
  await expect(entry).toContainText("Lead (SSO)");
  await expect(entry).toContainText("person");
  await sam.goto("/audit?target=member");
  await expect(sam.getByRole("table").getByRole("row").filter({ hasText: "Member: join" })).toContainText("Sam");

  // 6. A password reset link for Sam; using it signs Sam out everywhere, then in with the new password.
  await lead.goto("/members");
  await lead.getByRole("button", { name: "Password reset link for Sam" }).click();
  const reset = await lead.getByLabel("The password reset link for Sam").textContent();
  const samElsewhere = await newPage(browser, baseURL!, "light");
  await samElsewhere.goto(new URL(reset!).pathname + new URL(reset!).search);
  await expect(h1(samElsewhere, "Set a new password")).toBeVisible();
  await expectNoAxeViolations(samElsewhere, "reset page (light)", { soft: true });
  await samElsewhere.getByLabel("New password", { exact: true }).fill("a brand new passphrase");
  await samElsewhere.getByRole("button", { name: "Set the password and sign in" }).click();
  await expect(samElsewhere).toHaveURL(/\/runs$/, { timeout: 15_000 });
  await sam.goto("/members");
  await expect(sam).toHaveURL(/\/login\?next=%2Fmembers/);

  // 7. Sign out everywhere from the Account menu ends the lead's session.
  await lead.goto("/runs");
  await openAccountMenu(lead);
  await expect(lead.getByText("Signed in as").filter({ visible: true })).toContainText("Lead (SSO)");
  await lead.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(lead).toHaveURL(/\/login/);
  await lead.goto("/members");
  await expect(lead).toHaveURL(/\/login\?next=%2Fmembers/);
});
