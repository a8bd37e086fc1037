import { expect, type Locator } from "@playwright/test";

/**
 * Waits until a control is hydrated (`data-hydrated`, components/ui/use-hydrated.ts): a choice made
 * in the server's HTML before React attaches its handler is lost, which a busy machine makes likely.
 */
export async function hydrated(control: Locator): Promise<Locator> {
  await expect(control).toHaveAttribute("data-hydrated", "true", { timeout: 15_000 });
  return control;
}
