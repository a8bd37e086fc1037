// Builds @cuescope/sdk into dist/: one ESM bundle (esbuild; the app's zod contracts in
// lib/contracts are bundled in, zod stays external) and declarations (tsc), whose relative
// imports get `.js` so consumers under moduleResolution node16/nodenext resolve them.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "dist");
const require = createRequire(import.meta.url);
const { build } = await import("esbuild");

rmSync(dist, { recursive: true, force: true });
await build({
  entryPoints: [join(here, "src/index.ts")],
  outfile: join(dist, "index.js"),
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  external: ["zod"],
  legalComments: "none",
  logLevel: "warning",
});

execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(here, "tsconfig.json")], { stdio: "inherit" });

const types = join(dist, "types");
(function addJsExtensions(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) addJsExtensions(path);
    else if (name.endsWith(".d.ts")) {
      const text = readFileSync(path, "utf8").replace(/(from\s+|import\()(["'])(\.{1,2}\/[^"']+?)\2/g, (m, lead, q, spec) =>
        spec.endsWith(".js") ? m : `${lead}${q}${spec}.js${q}`,
      );
      writeFileSync(path, text);
    }
  }
})(types);
writeFileSync(join(dist, "index.d.ts"), 'export * from "./types/packages/sdk/src/index.js";\n');
console.log(`built ${dist}`);
