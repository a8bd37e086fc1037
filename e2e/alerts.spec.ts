import { expect, test } from "@playwright/test";
import { THEME_COOKIE } from "@/components/layout/theme";
import { expectNoAxeViolations } from "./support/axe";
import { signInToDemo } from "./support/sign-in";

test.describe.configure({ mode: "serial" });

test("an admin makes an alert rule from a trends chart, silences it, and finds it in the audit log; the demo's alerts show their deliveries", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await context.addCookies([{ name: THEME_COOKIE, value: "light", url: baseURL! }]);
  await signInToDemo(page, "/trends");
  const violations = page.getByRole("region", { name: "Reviewer violations" });
  await expect(violations).toBeVisible({ timeout: 60_000 });
  await violations.getByRole("link", { name: "Alert on this: Reviewer violations" }).click();
  await expect(page).toHaveURL(/\/alerts\?new=reviewer_violations/);
  await expect(page.getByRole("heading", { level: 1, name: "Alerts" })).toBeVisible();
  await expect(page.locator('[data-hydrated="true"]').first()).toBeAttached({ timeout: 15_000 });

  // The form came filled in from the chart: its kind, and the condition in words as it is edited.
  const form = page.getByRole("region", { name: "New rule" });
  await expect(form.getByLabel("When")).toHaveValue("reviewer_violations");
  await form.getByLabel("More than (violations)").fill("0");
  await form.getByLabel("Over the last").selectOption({ label: "7 days" });
  await expect(form.getByText("Fires on: more than 0 Reviewer violations over 7 days.")).toBeVisible();
  // A webhook aimed inside the network is refused, saying why.
  await form.getByLabel(/^Webhook URL/).fill("http://10.0.0.5/hook");
  await form.getByRole("button", { name: "Make the rule" }).click();
  await expect(form.getByRole("alert")).toContainText("CUESCOPE_WEBHOOK_ALLOW_PRIVATE");
  await form.getByLabel(/^Webhook URL/).fill("https://hooks.example.com/e2e-token");
  await form.getByLabel(/^Name/).fill("E2E violations");
  await form.getByRole("button", { name: "Make the rule" }).click();
  await expect(form.getByLabel("The webhook's signing secret")).toHaveText(/^whsec_/);

  // The rule is listed with its URL's origin only, and can be silenced and unsilenced.
  const rules = page.getByRole("region", { name: "Rules", exact: true });
  const row = rules.getByRole("row", { name: /E2E violations/ });
  await expect(row).toBeVisible();
  await expect(row).toContainText("https://hooks.example.com/…");
  await expect(row).not.toContainText("e2e-token");
  await row.getByRole("button", { name: "Silence 24 h: rule “E2E violations”" }).click();
  await expect(row).toContainText("silenced until");
  await row.getByRole("button", { name: "Unsilence rule “E2E violations”" }).click();
  await expect(row).not.toContainText("silenced until");

  // The demo's alerts: a delivery's attempts open under it; the link leads to the matching runs.
  const alerts = page.getByRole("list", { name: "Alerts, newest first" });
  await expect(alerts.getByRole("listitem").first()).toBeVisible();
  const delivery = alerts.locator("details").first();
  await delivery.locator("summary").click();
  await expect(delivery.getByRole("table")).toContainText(/HTTP \d{3}|answered|no answer|reset|refused/);
  await expectNoAxeViolations(page, "alerts (light)", { soft: true });
  await alerts.getByRole("link", { name: "Open the matching runs" }).first().click();
  await expect(page).toHaveURL(/\/runs\?/);

  // Every change is in the audit log.
  await page.goto("/audit?target=alertRule");
  await expect(page.getByRole("cell", { name: /E2E violations/ }).first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("cell", { name: /Alert rule: update/ }).first()).toBeVisible();

  // Clean up: delete the rule (asks first).
  await page.goto("/alerts");
  const again = page.getByRole("region", { name: "Rules", exact: true }).getByRole("row", { name: /E2E violations/ });
  await expect(page.locator('[data-hydrated="true"]').first()).toBeAttached({ timeout: 15_000 });
  await again.getByRole("button", { name: "Delete rule “E2E violations”" }).click();
  await again.getByRole("button", { name: "Really delete rule “E2E violations”" }).click();
  await expect(page.getByRole("region", { name: "Rules", exact: true }).getByRole("row", { name: /E2E violations/ })).toHaveCount(0);
});

test("an admin makes a “runs out within N turns” rule through the form, at 390 px in the dark theme", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await context.addCookies([{ name: THEME_COOKIE, value: "dark", url: baseURL! }]);
  await page.setViewportSize({ width: 390, height: 900 });
  // A link may fill in the kind and the meter, as the other kinds' links do.
  await signInToDemo(page, "/alerts?new=runs_out&meter=time");
  await expect(page.getByRole("heading", { level: 1, name: "Alerts" })).toBeVisible();
  await expect(page.locator('[data-hydrated="true"]').first()).toBeAttached({ timeout: 15_000 });

  const form = page.getByRole("region", { name: "New rule" });
  await expect(form.getByLabel("When")).toHaveValue("runs_out");
  await expect(form.getByLabel("Runs out of")).toHaveValue("time");
  // No window for this kind: it looks at the live runs as they are now.
  await expect(form.getByLabel("Over the last")).toHaveCount(0);

  // A number of turns out of range is said, and the rule cannot be made.
  await form.getByLabel("Within (turns)").fill("0");
  await expect(form.getByText("expected a whole number of turns from 1 to 100,000")).toBeVisible();
  await expect(form.getByRole("button", { name: "Make the rule" })).toBeDisabled();

  await form.getByLabel("Runs out of").selectOption("requests");
  await form.getByLabel("Within (turns)").fill("25");
  await form.getByLabel("Agent (empty: all)").fill("etf-research-agent");
  await expect(
    form.getByText("Fires on: a live run projected to run out of requests within 25 turns at its current pace (agent etf-research-agent)."),
  ).toBeVisible();
  await expectNoAxeViolations(page, "alerts, runs-out form (dark, 390 px)");
  await form.getByLabel(/^Name/).fill("E2E runs out");
  await form.getByRole("button", { name: "Make the rule" }).click();
  await expect(form.getByRole("status")).toHaveText("Rule “E2E runs out” made.");

  // The rules list shows it with its condition in words.
  const rules = page.getByRole("region", { name: "Rules", exact: true });
  const row = rules.getByRole("row", { name: /E2E runs out/ });
  await expect(row).toContainText(
    "a live run projected to run out of requests within 25 turns at its current pace (agent etf-research-agent)",
  );

  // Clean up: delete the rule (asks first).
  await row.getByRole("button", { name: "Delete rule “E2E runs out”" }).click();
  await row.getByRole("button", { name: "Really delete rule “E2E runs out”" }).click();
  await expect(rules.getByRole("row", { name: /E2E runs out/ })).toHaveCount(0);
});

for (const [theme, width] of [
  ["dark", 1280],
  ["light", 390],
] as const) {
  test(`the alerts page in the ${theme} theme at ${width} px has no axe violations`, async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: THEME_COOKIE, value: theme, url: baseURL! }]);
    await page.setViewportSize({ width, height: 900 });
    await signInToDemo(page, "/alerts?new=drop_rate&key=context");
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    await expect(page.getByRole("list", { name: "Alerts, newest first" })).toBeVisible();
    await expectNoAxeViolations(page, `alerts (${theme}, ${width} px)`);
  });
}
