import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The dark theme applies two ways (components/layout/theme.ts): chosen (data-theme="dark") or asked
// for by the OS while the choice is System. CSS cannot say both in one rule, so app/globals.css
// holds the dark tokens twice; these checks keep the copies equal and every other stylesheet on the tokens.

const declarations = (css: string, selector: string): string[] => {
  const start = css.indexOf(`${selector} {`);
  expect(start, `${selector} in app/globals.css`).toBeGreaterThanOrEqual(0);
  const body = css.slice(start + selector.length + 2, css.indexOf("}", start));
  return body
    .split(";")
    .map((line) => line.replace(/\/\*.*?\*\//g, "").trim())
    .filter(Boolean);
};

const stylesheets = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".css"))
    .map((file) => join(dir, file));

describe("theme stylesheets", () => {
  const globals = readFileSync("app/globals.css", "utf8");

  it("the chosen dark theme and the OS's dark theme set the same tokens", () => {
    const chosen = declarations(globals, ':root[data-theme="dark"]');
    const system = declarations(globals, ':root:not([data-theme="light"])');
    expect(chosen.length).toBeGreaterThan(10);
    expect(system).toEqual(chosen);
    expect(globals).toMatch(/@media \(prefers-color-scheme: dark\) \{\s*:root:not\(\[data-theme="light"\]\) \{/);
  });

  it("no other stylesheet asks the OS for its colour scheme (it would ignore the user's choice)", () => {
    const others = [...stylesheets("app"), ...stylesheets("components")].filter((file) => file !== join("app", "globals.css"));
    expect(others.length).toBeGreaterThan(10);
    for (const file of others) expect(readFileSync(file, "utf8"), file).not.toMatch(/prefers-color-scheme/);
  });
});
