import { expect, type Page } from "@playwright/test";

/**
 * Signs in to the e2e server's demo project through the sign-in page, as a person would (`base`:
 * another server's address, for a spec with a server of its own).
 */
export async function signInToDemo(page: Page, next = "/runs", base = ""): Promise<void> {
  await page.goto(`${base}/login?next=${encodeURIComponent(next)}`);
  await page.getByRole("button", { name: "Open the demo project" }).click();
  // The sign-in action answers with the destination page already rendered (a run page with its
  // turn prefetched), which takes longer than the default 5 s on a busy 2-core machine.
  await expect(page).toHaveURL(new RegExp(`${next.replace(/[?]/g, "\\?")}`), { timeout: 15_000 });
}
