import path from "node:path";
import { expect, test } from "@playwright/test";

test.describe("home page", () => {
  test("explains Cuescope, its units and statuses", async ({ page }) => {
    await page.goto("/");

    await expect(page).toHaveTitle("Cuescope");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("See which reminders your agents really got");

    // The three audiences.
    for (const who of [
      "Researchers reviewing agent runs",
      "Team leads auditing Reviewer dispatches",
      "Product people tuning reminder copy",
    ]) {
      await expect(page.getByRole("heading", { level: 3, name: who })).toBeVisible();
    }

    // Four meters, each in its own unit.
    const meters = page.getByRole("table", { name: "Meters and their units" });
    await expect(meters).toBeVisible();
    const expectedUnits: Record<string, string> = {
      requests: "count",
      time: "ms",
      context: "bytes",
      edits: "count per block",
    };
    for (const [meter, unit] of Object.entries(expectedUnits)) {
      const row = meters.getByRole("row").filter({ has: page.getByRole("rowheader", { name: meter, exact: true }) });
      await expect(row).toHaveCount(1);
      await expect(row.getByRole("cell").first()).toHaveText(unit);
    }

    // Delivery statuses legend: mark and word for each.
    const legend = page.getByRole("table", { name: "Delivery statuses" });
    const marks = { delivered: "●", dropped: "✕", failed: "▲", uncertain: "◆", pending: "○" };
    for (const [status, mark] of Object.entries(marks)) {
      await expect(legend.getByRole("rowheader", { name: status })).toContainText(mark);
    }

    // The rebuild command line.
    await expect(page.getByRole("heading", { name: "Rebuild a run from the command line" })).toBeVisible();
    await expect(page.getByText("npm run --silent rebuild -- path/to/run.jsonl")).toBeVisible();

    // Every section is a link in the main navigation.
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link")).toHaveCount(9);
    await expect(nav.getByRole("link", { name: "Runs" })).toHaveAttribute("href", "/runs");
    await expect(nav.getByRole("link", { name: "Reviewer" })).toHaveAttribute("href", "/reviewer");
    await expect(nav.getByRole("link", { name: "Trends" })).toHaveAttribute("href", "/trends");
    await expect(nav.getByRole("link", { name: "Alerts" })).toHaveAttribute("href", "/alerts");
    await expect(nav.getByRole("link", { name: "Copy" })).toHaveAttribute("href", "/copy");
    await expect(nav.getByRole("link", { name: "Audit" })).toHaveAttribute("href", "/audit");
    await expect(nav.getByRole("link", { name: "API" })).toHaveAttribute("href", "/docs/api");

    // Favicon is linked.
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", /favicon\.svg/);
  });

  test("unknown pages show not-found, and the nav leads home", async ({ page }, testInfo) => {
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(page.getByText("not built yet")).toHaveCount(0);
    const main = page.getByRole("main");
    for (const [name, href] of [
      ["Runs", "/runs"],
      ["Reviewer", "/reviewer"],
      ["Copy", "/copy"],
      ["API reference", "/docs/api"],
    ]) {
      await expect(main.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Cuescope" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("See which reminders your agents really got");

    await page.screenshot({ path: path.join(testInfo.project.outputDir, "home.png"), fullPage: true });
  });
});
