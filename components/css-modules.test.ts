/**
 * Every class a component reads from a CSS module exists in that module: a misspelt or removed
 * class is `undefined` at run time and silently unstyled, and neither TypeScript nor the build says so.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

const ROOTS = ["components", "app"];
const LIST_PAGE_CSS = "components/ui/list-page.module.css";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

const classesOf = (cssPath: string) => new Set([...readFileSync(cssPath, "utf8").matchAll(/\.([A-Za-z_][\w-]*)/g)].map((m) => m[1]));
const usesOf = (source: string, name: string) =>
  new Set([...source.matchAll(new RegExp(`\\b${name}\\.([A-Za-z_]\\w*)`, "g"))].map((m) => m[1]));

describe("CSS module classes", () => {
  const files = ROOTS.flatMap(sources);

  it("finds the components that use CSS modules", () => {
    expect(files.filter((f) => readFileSync(f, "utf8").includes(".module.css")).length).toBeGreaterThan(20);
  });

  it.each(files)("%s uses only classes its modules define", (file) => {
    const source = readFileSync(file, "utf8");
    const missing: string[] = [];
    const check = (name: string, cssPath: string) => {
      const defined = classesOf(cssPath);
      for (const used of usesOf(source, name)) if (!defined.has(used)) missing.push(`${name}.${used} (${cssPath})`);
    };
    for (const [, name, path] of source.matchAll(/import (\w+) from "(\.[^"]+\.module\.css)"/g))
      check(name, normalize(join(dirname(file), path)));
    for (const [, alias] of source.matchAll(/listPageStyles as (\w+)/g)) check(alias, LIST_PAGE_CSS);
    expect(missing).toEqual([]);
  });
});
