import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** The WCAG 2.2 AA rule set: every A and AA rule of WCAG 2.0, 2.1 and 2.2. */
export const WCAG_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

/** One line per violating element: rule id, impact, the element's selector and its HTML (cut short). */
export function describeViolations(violations: Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"]): string[] {
  return violations.flatMap((violation) =>
    violation.nodes.map((node) => {
      const snippet = node.html.replace(/\s+/g, " ").slice(0, 160);
      const why = node.failureSummary?.replace(/\s+/g, " ").slice(0, 200) ?? "";
      return `${violation.id} [${violation.impact ?? "?"}] ${node.target.join(" ")} :: ${snippet} :: ${why}`;
    }),
  );
}

/**
 * Runs axe-core on the page as it is now with the WCAG 2.2 A+AA rules and fails the test with one
 * line per violating element. `state` names the page state in the failure. `soft` records the
 * failure and lets the test go on to its next state (it still fails at the end), so one run lists
 * every state's violations. `disableRules` leaves rules out (say why where it is used). `include`
 * checks only the part of the page a state changed (a menu opened, a form's error shown) when the
 * rest was checked in an earlier state of the same test. `rules` runs only those rules (a long
 * page's costly colour-contrast rule on one of each of its parts, say).
 */
export async function expectNoAxeViolations(
  page: Page,
  state: string,
  options: { soft?: boolean; disableRules?: string[]; include?: string; rules?: string[] } = {},
): Promise<void> {
  // Next streams a page's metadata after its first bytes: the <title> may land just after the body.
  await expect(page).toHaveTitle(/\S/, { timeout: 10_000 });
  let builder = options.rules ? new AxeBuilder({ page }).withRules(options.rules) : new AxeBuilder({ page }).withTags(WCAG_AA_TAGS);
  if (options.include) builder = builder.include(options.include);
  if (options.disableRules?.length) builder = builder.disableRules(options.disableRules);
  const results = await builder.analyze();
  const lines = describeViolations(results.violations);
  const check = options.soft ? expect.soft(lines, `axe (WCAG 2.2 AA) on ${state}`) : expect(lines, `axe (WCAG 2.2 AA) on ${state}`);
  check.toEqual([]);
}
