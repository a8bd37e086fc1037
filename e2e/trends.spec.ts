import { expect, test } from "@playwright/test";
import { openAccountMenu } from "./support/account-menu";
import { hydrated } from "./support/hydrated";
import { signInToDemo } from "./support/sign-in";

test.describe("Trends", () => {
  test.beforeEach(async ({ page }) => {
    test.setTimeout(120_000);
    await signInToDemo(page, "/trends");
    await expect(page.getByRole("heading", { level: 1, name: "Trends" })).toBeVisible({ timeout: 90_000 });
    await hydrated(page.getByLabel("Agent"));
  });

  test("shows the demo data's trends, filters them, follows the time zone and opens a day's runs", async ({ page }) => {
    // The demo runs are in the last 14 days: every chart is there with its text summary.
    for (const name of [
      "Drop rate per key",
      "Reminders per key",
      "Findings per 1,000 turns",
      "Reviewer violations",
      "Follow-up rate per copy version",
    ]) {
      await expect(page.getByRole("region", { name })).toBeVisible();
    }
    await expect(page.getByRole("region", { name: "Drop rate per key" })).toContainText(/Drop rate \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}/);
    await expect(page.getByRole("region", { name: "Reminders per key" })).toContainText("requests (reminders)");
    await expect(page.getByRole("region", { name: "Follow-up rate per copy version" })).toContainText("association, not effect");
    await expect(page.locator(".recharts-surface").first()).toBeVisible();

    // A filter: one agent of the demo data.
    const agent = page.getByLabel("Agent");
    const agentName = (await agent.locator("option").nth(1).textContent())!;
    await agent.selectOption(agentName);
    await expect(page).toHaveURL(new RegExp(`agent=${encodeURIComponent(agentName)}`));
    await expect(page.getByRole("region", { name: "Drop rate per key" })).toBeVisible();

    // The time zone from the Account menu: the days are now Asia/Kolkata's, also after a reload.
    await openAccountMenu(page);
    await page.getByRole("navigation", { name: "Main" }).getByRole("combobox", { name: "Time zone" }).selectOption("Asia/Kolkata");
    await expect(page.getByRole("region", { name: "Drop rate per key" })).toContainText("(Asia/Kolkata)");
    await page.keyboard.press("Escape");
    await page.reload();
    await expect(page.getByRole("region", { name: "Drop rate per key" })).toContainText("(Asia/Kolkata)");
    await hydrated(page.getByLabel("Agent"));

    // A click on a bar opens the runs list of that day (from/to in the zone) with the agent.
    const plot = page.getByRole("region", { name: "Reviewer violations" }).locator(".recharts-wrapper");
    await plot.scrollIntoViewIfNeeded();
    const box = (await plot.boundingBox())!;
    const [x, y] = [box.x + box.width * 0.75, box.y + box.height / 2];
    // Hover first (the chart's tooltip names the day under the pointer), then click it.
    await page.mouse.move(x - 5, y);
    await page.mouse.move(x, y);
    await expect(page.getByRole("region", { name: "Reviewer violations" }).locator(".recharts-tooltip-wrapper")).toContainText(
      /\d{4}-\d{2}-\d{2}/,
    );
    await page.mouse.click(x, y);
    await expect(page).toHaveURL(/\/runs\?.*from=.*to=/);
    const url = new URL(page.url());
    expect(url.searchParams.get("agent")).toBe(agentName);
    // From the violations chart: only the runs with violations.
    expect(url.searchParams.get("hasViolations")).toBe("1");
    // A day in Asia/Kolkata starts at 18:30 UTC.
    expect(url.searchParams.get("from")).toMatch(/T18:30:00\.000Z$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });

  test("a day's values link to its runs, and an empty window says so", async ({ page }) => {
    const violations = page.getByRole("region", { name: "Reviewer violations" });
    await violations.getByText("Values per day").click();
    const link = violations.getByRole("link", { name: /^Runs of \d{4}-\d{2}-\d{2} with Reviewer violations$/ }).last();
    await link.click();
    await expect(page).toHaveURL(/\/runs\?.*from=.*to=.*hasViolations=1/);
    await page.goBack();
    // The drop rate's days open the runs with drops, highest drop rate first.
    const drops = page.getByRole("region", { name: "Drop rate per key" });
    await drops.getByText("Values per day").click();
    const dropLink = drops.getByRole("link", { name: /^Runs of \d{4}-\d{2}-\d{2} with dropped reminders$/ }).last();
    expect(new URL((await dropLink.getAttribute("href"))!, "http://x").searchParams.get("sort")).toBe("-dropRate");
    await dropLink.click();
    await expect(page).toHaveURL(/\/runs\?.*hasDrops=1/);

    await page.goto("/trends?from=2020-01-01&to=2020-01-10");
    await expect(page.getByRole("heading", { name: "No turns in this window" })).toBeVisible();
    await expect(page.getByLabel("From day")).toHaveValue("2020-01-01");
  });
});
