import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The core stays pure (architecture habit 1): lib/core and lib/contracts import only zod and each
 * other — never next, react, Prisma or node built-ins — and read no clock or randomness.
 */
const lib = resolve(__dirname, "..");
const PURE = ["core", "contracts"].map((dir) => join(lib, dir));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|require\(\s*["']([^"']+)["']\s*\)/g)) {
    found.push(m[1] ?? m[2] ?? m[3]);
  }
  return found;
}

describe("core boundary", () => {
  const files = PURE.flatMap(sourceFiles).filter((f) => !f.includes(`${join("core", "spec")}`));

  it("finds the core's files", () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(PURE.flatMap(sourceFiles).map((f) => [relative(lib, f), f]))("%s imports only zod and the pure modules", (_, file) => {
    for (const spec of importsOf(readFileSync(file, "utf8"))) {
      if (spec === "zod") continue;
      expect(spec.startsWith("."), `${spec} in ${file}`).toBe(true);
      const target = resolve(file, "..", spec);
      expect(PURE.some((dir) => target === dir || target.startsWith(dir + "/")), `${spec} leaves lib/core and lib/contracts`).toBe(true);
    }
  });

  it.each(files.map((f) => [relative(lib, f), f]))("%s reads no clock, randomness or process state", (_, file) => {
    const source = readFileSync(file, "utf8");
    expect(source).not.toMatch(/Date\.now\(|new Date\(\)|Math\.random\(|process\.|performance\.now/);
  });

  it("the checker itself catches a forbidden import", () => {
    expect(importsOf(`import { PrismaClient } from "@prisma/client";\nimport x from "node:fs";`)).toEqual(["@prisma/client", "node:fs"]);
  });
});
