import { expect, test, type Page } from "@playwright/test";
import { openAccountMenu, signOut } from "./support/account-menu";
import { signInToDemo } from "./support/sign-in";

/**
 * Laptop and phone: the section links are in the bar at the first, in "Menu" at the second. A small
 * laptop (1024 px) lays the bar out as the laptop does; its test below only checks that it still fits.
 */
const VIEWPORTS = [
  { width: 1440, height: 900, narrow: false },
  { width: 390, height: 844, narrow: true },
] as const;

const SECTIONS = [
  { name: "Runs", path: "/runs", heading: /runs/i },
  { name: "Reviewer", path: "/reviewer", heading: /reviewer/i },
  { name: "Trends", path: "/trends", heading: /trends/i },
  { name: "Alerts", path: "/alerts", heading: /alerts/i },
  { name: "Experiments", path: "/experiments", heading: /experiments/i },
  { name: "Copy", path: "/copy", heading: /copy/i },
  { name: "Audit", path: "/audit", heading: /audit log/i },
  { name: "API", path: "/docs/api", heading: /api/i },
] as const;

const nav = (page: Page) => page.getByRole("navigation", { name: "Main" });
const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const LIGHT_BG = "rgb(244, 245, 247)"; // --bg in app/globals.css
const DARK_BG = "rgb(17, 20, 25)";

/** Nothing sticks out to the right: wide tables scroll in their own region, long words wrap. */
async function noHorizontalScroll(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `the page at ${page.url()} is ${scrollWidth}px wide in a ${innerWidth}px window`).toBeLessThanOrEqual(innerWidth);
}

for (const viewport of VIEWPORTS) {
  test.describe(`header at ${viewport.width} px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("every section link is reachable and leads to its page; Sign out signs out", async ({ page }) => {
      test.setTimeout(60_000); // nine pages, each rendered by the server
      await signInToDemo(page, "/");
      const menu = nav(page).getByRole("button", { name: "Menu" });
      if (viewport.narrow) {
        await expect(menu).toBeVisible();
        await expect(nav(page).getByRole("link", { name: "Runs" })).toBeHidden();
        await expect(nav(page).getByRole("button", { name: "Account" })).toBeHidden();
      } else {
        await expect(menu).toBeHidden();
        await expect(nav(page).getByRole("button", { name: "Account" })).toBeVisible();
      }

      for (const section of SECTIONS) {
        if (viewport.narrow) await openAccountMenu(page);
        const link = nav(page).getByRole("link", { name: section.name, exact: true });
        await expect(link).toBeInViewport();
        await link.click();
        await expect(page).toHaveURL(new RegExp(`${section.path}(\\?|$)`));
        await expect(page.getByRole("heading", { level: 1 })).toContainText(section.heading);
        await expect(nav(page).locator('a[aria-current="page"]').first()).toHaveText(section.name);
        if (viewport.narrow) {
          await expect(menu).toHaveAttribute("aria-expanded", "false"); // following a link closes the menu
          await noHorizontalScroll(page);
        }
      }

      await nav(page).getByRole("link", { name: "Cuescope" }).click();
      await expect(page).toHaveURL(/\/$/);
      if (viewport.narrow) await noHorizontalScroll(page);

      await openAccountMenu(page);
      await expect(nav(page).getByRole("button", { name: "Sign out" })).toBeInViewport();
      await signOut(page);
      await page.goto("/runs");
      await expect(page).toHaveURL(/\/login\?next=%2Fruns/);
    });

    test("the theme is chosen in the menu, applies at once, and is kept across a reload", async ({ page, context }) => {
      await page.emulateMedia({ colorScheme: "light" });
      await signInToDemo(page, "/runs");
      await expect(page.locator("html")).toHaveAttribute("data-theme", "system");
      expect(await bodyBackground(page)).toBe(LIGHT_BG);

      await openAccountMenu(page);
      await expect(page.getByRole("radio", { name: "System" })).toBeChecked();
      await page.getByRole("radio", { name: "Dark" }).check();
      await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
      await expect.poll(() => bodyBackground(page)).toBe(DARK_BG);

      const cookie = (await context.cookies()).find((c) => c.name === "cuescope-theme");
      expect(cookie).toMatchObject({ value: "dark", httpOnly: false, sameSite: "Lax", path: "/" });
      expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(360 * 86_400_000);

      // The server renders the chosen theme: no flash of the light one on reload.
      const html = await (await page.request.get("/runs")).text();
      expect(html).toMatch(/<html[^>]*data-theme="dark"/);
      await page.reload();
      await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
      expect(await bodyBackground(page)).toBe(DARK_BG);

      // Light wins over a dark OS; System follows it.
      await page.emulateMedia({ colorScheme: "dark" });
      await openAccountMenu(page);
      await expect(page.getByRole("radio", { name: "Dark" })).toBeChecked();
      await page.getByRole("radio", { name: "Light" }).check();
      await expect.poll(() => bodyBackground(page)).toBe(LIGHT_BG);
      await page.getByRole("radio", { name: "System" }).check();
      await expect.poll(() => bodyBackground(page)).toBe(DARK_BG);
      await page.emulateMedia({ colorScheme: "light" });
      await expect.poll(() => bodyBackground(page)).toBe(LIGHT_BG);
      await page.reload();
      await expect(page.locator("html")).toHaveAttribute("data-theme", "system");
    });
  });
}

test.describe("header at 1024 px", () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test("every section link and the Account menu still fit in the bar", async ({ page }) => {
    await signInToDemo(page, "/");
    await expect(nav(page).getByRole("button", { name: "Menu" })).toBeHidden();
    await expect(nav(page).getByRole("button", { name: "Account" })).toBeInViewport();
    for (const section of SECTIONS) await expect(nav(page).getByRole("link", { name: section.name, exact: true })).toBeInViewport();
    await noHorizontalScroll(page);
  });
});

test.describe("header on a phone, by keyboard", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("Menu opens with Enter, its links are next in the tab order, Escape closes it and returns the focus", async ({ page }) => {
    await signInToDemo(page, "/reviewer");
    await noHorizontalScroll(page);
    const menu = nav(page).getByRole("button", { name: "Menu" });
    await openAccountMenu(page); // once hydrated
    await page.keyboard.press("Escape");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeFocused();

    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Tab");
    await expect(nav(page).getByRole("link", { name: "Runs" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(nav(page).getByRole("link", { name: "Reviewer" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeFocused();

    // A tap outside closes it too.
    await menu.click();
    await page.mouse.click(195, 830); // below the sheet

    await expect(menu).toHaveAttribute("aria-expanded", "false");
  });

  test("? opens the keyboard help with this page's keys first; Esc closes it; the menu opens it too", async ({ page }) => {
    await signInToDemo(page, "/reviewer");
    await expect(page.getByRole("heading", { level: 1, name: "Reviewer audit" })).toBeVisible({ timeout: 60_000 });
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(async () => {
      await page.locator("body").press("?");
      await expect(help).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 15_000 }); // a press before hydration finds no listener
    await expect(help.getByRole("heading", { level: 3 }).first()).toHaveText("Reviewer audit · this page");
    await expect(help).toContainText("previous / next candidate with a violation");
    await page.keyboard.press("Escape");
    await expect(help).toBeHidden();

    await openAccountMenu(page);
    await nav(page).getByRole("button", { name: "Keyboard shortcuts" }).click();
    await expect(help).toBeVisible();
    await help.getByRole("button", { name: "Close" }).click();
    await expect(help).toBeHidden();
    // The menu closed behind the dialog, so the focus goes back to its button, not to the page.
    await expect(nav(page).getByRole("button", { name: "Menu" })).toBeFocused();
  });

  test("signed out, the theme is still at hand", async ({ page }) => {
    await page.goto("/login");
    await openAccountMenu(page);
    await expect(nav(page).getByRole("group", { name: "Theme" })).toBeVisible();
    await expect(nav(page).getByRole("button", { name: "Sign out" })).toHaveCount(0);
    await noHorizontalScroll(page);
  });
});

/** Pages the header links above do not reach, whose content was once wider than a phone. */
test.describe("pages on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("nothing is wider than the window: a run with findings, the what-if replay", async ({ page }) => {
    await signInToDemo(page, "/runs/etf-holdings-overlap");
    await expect(page.getByRole("region", { name: /^Findings/ })).toBeVisible();
    await noHorizontalScroll(page);
    await page.goto("/copy/replay");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await noHorizontalScroll(page);
  });
});
