import { expect, type Page } from "@playwright/test";

/**
 * Opens the header's menu that holds the account items (theme, Sign out): "Account" on wide
 * screens, "Menu" below 720 px ("Theme" when nobody is signed in). Only one of them is displayed.
 * A click before React hydrates the header does nothing, so the click is repeated until the
 * button says it is open.
 */
export async function openAccountMenu(page: Page): Promise<void> {
  const button = page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: /^(Account|Menu|Theme)$/ });
  await expect(async () => {
    if ((await button.getAttribute("aria-expanded")) !== "true") await button.click();
    await expect(button).toHaveAttribute("aria-expanded", "true", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

/** The header's Sign out button, with its menu opened. */
export async function signOutButton(page: Page) {
  await openAccountMenu(page);
  return page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Sign out" });
}

/** Signs out as a person would: the menu, then Sign out (the server action redirects to /login). */
export async function signOut(page: Page): Promise<void> {
  await (await signOutButton(page)).click();
  await expect(page).toHaveURL(/\/login/, { timeout: 15_000 });
}
