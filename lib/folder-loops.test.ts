import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { cruise, type IConfiguration } from "dependency-cruiser";
import { afterAll, describe, expect, it } from "vitest";

/**
 * `npm run lint` refuses import loops between folders (.dependency-cruiser.cjs, docs/architecture.md):
 * its rule, run on small trees written here, finds a loop through any number of folders, names
 * the folders, and leaves alone what is not a loop between folders.
 */
const config = createRequire(import.meta.url)(resolve(__dirname, "../.dependency-cruiser.cjs")) as IConfiguration;
const scratch = mkdtempSync(join(tmpdir(), "cuescope-folder-loops-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The rule's violations on a tree of files (path → source), as "from → to" folder pairs. */
async function loopsIn(name: string, files: Record<string, string>): Promise<string[]> {
  const root = join(scratch, name);
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), source);
  }
  const { tsConfig: _tsConfig, ...options } = config.options ?? {};
  // From the tree's own root (baseDir, not process.chdir: a test thread cannot change directory).
  const result = await cruise(["src"], { ...options, baseDir: root, validate: true, ruleSet: { forbidden: config.forbidden } });
  if (typeof result.output === "string") throw new Error("expected a cruise result");
  return result.output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
}

describe("the folder-loop rule of npm run lint", () => {
  it("refuses two folders that import each other", async () => {
    expect(
      await loopsIn("two", {
        "src/a/x.ts": 'import { y } from "../b/y";\nexport const x = () => y;\n',
        "src/b/y.ts": 'import { x } from "../a/x";\nexport const y = 1;\nexport const z = () => x;\n',
      }),
    ).toEqual(["no-folder-loop: src/a → src/b", "no-folder-loop: src/b → src/a"]);
  });

  it("refuses a loop through a third folder, though no two files import each other", async () => {
    const found = await loopsIn("three", {
      "src/a/x.ts": 'import { y } from "../b/y";\nexport const x = y;\n',
      "src/b/y.ts": 'import { w } from "../c/w";\nexport const y = w;\n',
      "src/c/w.ts": 'import { other } from "../a/other";\nexport const w = other;\n',
      "src/a/other.ts": "export const other = 1;\n",
    });
    expect(found).toContain("no-folder-loop: src/a → src/b");
    expect(found).toContain("no-folder-loop: src/c → src/a");
  });

  it("allows imports one way, and files of one folder importing each other", async () => {
    expect(
      await loopsIn("none", {
        "src/a/x.ts": 'import { y } from "../b/y";\nimport { v } from "./v";\nexport const x = y + v();\n',
        "src/a/v.ts": 'import { x } from "./x";\nexport const v = () => x;\n',
        "src/b/y.ts": "export const y = 1;\n",
      }),
    ).toEqual([]);
  });
});
