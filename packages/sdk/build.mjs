// Builds @cuescope/sdk into dist/ (or the folder given as `--out DIR`, for tests that must not
// share one): two ESM entries, `index.js` (the client) and `coordinator.js` (the in-process
// coordinator), with the code they share in `chunks/` (esbuild; the app's zod contracts in
// lib/contracts and the core in lib/core are bundled in, zod stays external), and declarations
// (tsc) whose relative and `@/` imports are rewritten to relative `.js` paths, so consumers under
// moduleResolution node16/nodenext and bundler resolve them.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const outFlag = process.argv.indexOf("--out");
const dist = outFlag > 0 ? resolve(process.argv[outFlag + 1]) : join(here, "dist");
const require = createRequire(import.meta.url);
const { build } = await import("esbuild");
const ENTRIES = ["index", "coordinator"];

rmSync(dist, { recursive: true, force: true });
await build({
  entryPoints: ENTRIES.map((name) => join(here, `src/${name}.ts`)),
  outdir: dist,
  entryNames: "[name]",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  external: ["zod"],
  legalComments: "none",
  logLevel: "warning",
});

const types = join(dist, "types");
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(here, "tsconfig.json"), "--outDir", types], {
  stdio: "inherit",
});

/** A specifier as a relative path with `.js` (or `/index.js` for a folder), from the declaration file `from`. */
function jsSpecifier(from, target) {
  const file = existsSync(`${target}.d.ts`) ? `${target}.js` : existsSync(join(target, "index.d.ts")) ? join(target, "index.js") : null;
  if (!file) throw new Error(`build: cannot resolve ${target} from ${from}`);
  const path = relative(dirname(from), file).split("\\").join("/");
  return path.startsWith(".") ? path : `./${path}`;
}

(function rewrite(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) rewrite(path);
    else if (name.endsWith(".d.ts")) {
      const text = readFileSync(path, "utf8").replace(/(from\s+|import\()(["'])((?:\.{1,2}|@)\/[^"']+?)\2/g, (m, lead, q, spec) => {
        if (spec.endsWith(".js")) return m;
        const target = spec.startsWith("@/") ? join(types, spec.slice(2)) : resolve(dirname(path), spec);
        return `${lead}${q}${jsSpecifier(path, target)}${q}`;
      });
      writeFileSync(path, text);
    }
  }
})(types);
for (const name of ENTRIES) writeFileSync(join(dist, `${name}.d.ts`), `export * from "./types/packages/sdk/src/${name}.js";\n`);
console.log(`built ${dist}`);
