import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const SDK_DIR = fileURLToPath(new URL("..", import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export interface BuiltPackage {
  /** A folder whose node_modules holds @cuescope/sdk (as published: package.json, README.md, dist/) and zod. */
  root: string;
  /** node_modules/@cuescope/sdk inside it. */
  pkg: string;
  /** Removes the folder. */
  remove(): void;
}

/**
 * Builds @cuescope/sdk as `npm run sdk:build` does, but into a fresh temporary folder laid out as an
 * installed package (so test files building at once never share packages/sdk/dist), with zod
 * resolvable beside it (a link to the repository's).
 */
export function buildPackage(): BuiltPackage {
  const root = mkdtempSync(join(tmpdir(), "cuescope-sdk-"));
  const pkg = join(root, "node_modules", "@cuescope", "sdk");
  mkdirSync(pkg, { recursive: true });
  execFileSync(process.execPath, [join(SDK_DIR, "build.mjs"), "--out", join(pkg, "dist")], { stdio: "pipe" });
  for (const file of ["package.json", "README.md"]) copyFileSync(join(SDK_DIR, file), join(pkg, file));
  symlinkSync(join(REPO_ROOT, "node_modules", "zod"), join(root, "node_modules", "zod"), "dir");
  return { root, pkg, remove: () => rmSync(root, { recursive: true, force: true }) };
}
