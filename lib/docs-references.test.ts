import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every reference from the code to the documentation resolves (docs/README.md, "Reference
 * convention"): `contract §N` (or a bare §N) → the heading "§N …" in docs/contract/*.md; `RN` → the
 * heading "RN. …" in docs/contract/rules.md; `architecture habit N` → the heading "Habit N. …" in
 * docs/architecture.md; a path docs/….md#anchor → that file and GitHub-style heading anchor. The
 * relative links inside docs/ are checked too, and citations of documents that are not in the
 * repository (the old upper-case spec and architecture names) are refused.
 */
const root = resolve(__dirname, "..");
const SOURCE_DIRS = ["lib", "app", "components", "scripts", "e2e"];
const SOURCE_FILE = /\.(ts|tsx|mjs|js)$/;
const SKIP_DIRS = new Set(["node_modules", "generated", ".next"]);
const self = resolve(__filename);

function filesUnder(dir: string, match: RegExp): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIP_DIRS.has(entry.name) ? [] : filesUnder(path, match);
    return match.test(entry.name) ? [path] : [];
  });
}

/** GitHub's heading anchor: formatting removed, lower case, punctuation dropped, spaces → "-". */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*~]/g, "")
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "").replace(/ /g, "-");
}

interface Heading {
  text: string;
  anchor: string;
}

/** The headings of a markdown file (outside code fences), with de-duplicated anchors. */
function headingsOf(file: string): Heading[] {
  const seen = new Map<string, number>();
  const out: Heading[] = [];
  let fenced = false;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = githubSlug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.push({ text: m[1].replace(/`/g, ""), anchor: n === 0 ? base : `${base}-${n}` });
  }
  return out;
}

const docsDir = join(root, "docs");
const contractFiles = filesUnder(join(docsDir, "contract"), /\.md$/);
const headingCache = new Map<string, Heading[]>();
const headings = (file: string) => {
  if (!headingCache.has(file)) headingCache.set(file, existsSync(file) ? headingsOf(file) : []);
  return headingCache.get(file)!;
};

function sectionTarget(n: string): string | null {
  for (const file of contractFiles) {
    const h = headings(file).find((x) => new RegExp(`^§${n}(\\s|$)`).test(x.text));
    if (h) return `${relative(root, file)}#${h.anchor}`;
  }
  return null;
}

function headingTarget(file: string, prefix: RegExp): string | null {
  const h = headings(file).find((x) => prefix.test(x.text));
  return h ? `${relative(root, file)}#${h.anchor}` : null;
}

function pathTarget(from: string, target: string): string | null {
  const [path, anchor] = target.split("#");
  const file = path === "" ? from : resolve(dirname(from), path);
  if (!existsSync(file)) return null;
  if (anchor === undefined || anchor === "") return relative(root, file);
  if (statSync(file).isDirectory() || !file.endsWith(".md")) return null;
  return headings(file).some((h) => h.anchor === anchor) ? `${relative(root, file)}#${anchor}` : null;
}

interface Reference {
  where: string;
  ref: string;
  target: string | null;
}

function referencesIn(file: string): Reference[] {
  const refs: Reference[] = [];
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, i) => {
      const where = `${relative(root, file)}:${i + 1}`;
      for (const m of line.matchAll(/§\s?(\d+)/g)) refs.push({ where, ref: m[0], target: sectionTarget(m[1]) });
      for (const m of line.matchAll(/\bR(\d{1,3})\b/g))
        refs.push({ where, ref: m[0], target: headingTarget(join(docsDir, "contract", "rules.md"), new RegExp(`^R${m[1]}\\. `)) });
      for (const m of line.matchAll(/\barchitecture habit (\d+)/gi))
        refs.push({ where, ref: m[0], target: headingTarget(join(docsDir, "architecture.md"), new RegExp(`^Habit ${m[1]}\\. `)) });
      for (const m of line.matchAll(/\bdocs\/[\w./-]+\.md(?:#[\w-]+)?/g))
        refs.push({ where, ref: m[0], target: pathTarget(join(root, "x"), m[0]) });
      // Documents that live outside the repository may not be cited.
      for (const m of line.matchAll(/\bSPEC\b|\bARCHITECTURE\b/g)) refs.push({ where, ref: m[0], target: null });
    });
  return refs;
}

const sources = SOURCE_DIRS.flatMap((dir) => filesUnder(join(root, dir), SOURCE_FILE)).filter((f) => resolve(f) !== self);

describe("references from the code to docs/", () => {
  const refs = sources.flatMap(referencesIn);

  it("finds the references it checks (the scan is not empty)", () => {
    expect(refs.filter((r) => r.ref.startsWith("§")).length).toBeGreaterThan(50);
    expect(refs.filter((r) => /^R\d/.test(r.ref)).length).toBeGreaterThan(100);
  });

  it("resolves every contract section, rule, habit and docs path to an existing heading", () => {
    const broken = refs.filter((r) => r.target === null).map((r) => `${r.where}: ${r.ref}`);
    expect(broken).toEqual([]);
  });

  it("has a heading for every section §1–§9, every rule R1–R14 and every habit 1–11", () => {
    const missing = [
      ...Array.from({ length: 9 }, (_, i) => (sectionTarget(String(i + 1)) ? null : `§${i + 1}`)),
      ...Array.from({ length: 14 }, (_, i) =>
        headingTarget(join(docsDir, "contract", "rules.md"), new RegExp(`^R${i + 1}\\. `)) ? null : `R${i + 1}`,
      ),
      ...Array.from({ length: 11 }, (_, i) =>
        headingTarget(join(docsDir, "architecture.md"), new RegExp(`^Habit ${i + 1}\\. `)) ? null : `habit ${i + 1}`,
      ),
    ].filter((x) => x !== null);
    expect(missing).toEqual([]);
  });
});

describe("links inside docs/", () => {
  it("point at existing files and headings", () => {
    const docs = [...filesUnder(docsDir, /\.md$/), join(root, "README.md")];
    const broken: string[] = [];
    for (const file of docs) {
      let fenced = false;
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
          if (fenced) return;
          for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
            const target = m[1];
            if (/^[a-z]+:/i.test(target)) continue;
            if (pathTarget(file, target) === null) broken.push(`${relative(root, file)}:${i + 1}: ${target}`);
          }
        });
    }
    expect(broken).toEqual([]);
  });
});

describe("githubSlug", () => {
  it.each([
    ["§4 Telemetry format, version 1", "4-telemetry-format-version-1"],
    ["R12. Reminder, Reviewer and notification are different things", "r12-reminder-reviewer-and-notification-are-different-things"],
    ["Output: `RunDecisions`", "output-rundecisions"],
    ["Habit 8. Charts: prepare, then render", "habit-8-charts-prepare-then-render"],
    ["§8 Follow-up (association, not effect)", "8-follow-up-association-not-effect"],
  ])("%s → %s", (heading, anchor) => {
    expect(githubSlug(heading)).toBe(anchor);
  });
});

describe("file paths cited in the code and the docs", () => {
  // A path from the repository's root to a file (a name with an extension), outside node_modules:
  // `lib/server/jobs/queue.ts`, `docs/operations.md`, `prisma/schema.prisma`. Patterns
  // (`*-routes.ts`, `<feature>.ts`) and generated or build output are not citations of one file.
  const CITED =
    /(?<![\w./-])((?:lib|app|components|scripts|e2e|prisma|docs|packages|examples|public)\/[\w.[\]@/-]*\.(?:ts|tsx|mjs|cjs|js|md|sql|prisma|json|css))\b/g;
  const GENERATED = /^(lib\/server\/db\/generated|packages\/sdk\/dist)\//;
  const docs = [...filesUnder(docsDir, /\.md$/), join(root, "README.md")];

  it("name files that exist", () => {
    const missing: string[] = [];
    let found = 0;
    for (const file of [...sources, ...docs]) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          for (const m of line.matchAll(CITED)) {
            const path = m[1];
            if (GENERATED.test(path) || line.slice(Math.max(0, m.index - 13), m.index).endsWith("node_modules/")) continue;
            found++;
            if (!existsSync(join(root, path))) missing.push(`${relative(root, file)}:${i + 1}: ${path}`);
          }
        });
    }
    expect(found).toBeGreaterThan(300);
    expect(missing).toEqual([]);
  });
});
