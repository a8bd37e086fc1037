import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { signOut, signOutButton } from "./support/account-menu";
import { signInToDemo } from "./support/sign-in";

test.describe("signing in", () => {
  test("a wrong key is refused with a reason; the demo key opens the runs", async ({ page }) => {
    await page.goto("/runs");
    await expect(page).toHaveURL(/\/login\?next=%2Fruns/);
    await page.getByLabel("Project API key").fill("cs_wrong");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: "not accepted" })).toContainText("unknown API key");
    // The refused key stays, marked invalid and described by the error under it.
    const field = page.getByLabel("Project API key");
    await expect(field).toHaveValue("cs_wrong");
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAccessibleDescription(/unknown API key/);

    await page.getByLabel("Project API key").fill(readFileSync(".cuescope/e2e/demo-key", "utf8").trim());
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/runs/);

    await signOut(page);
  });

  test("the demo button signs in and goes where the user was heading", async ({ page }) => {
    await signInToDemo(page, "/runs?status=completed");
    await expect(await signOutButton(page)).toBeVisible();
  });
});
