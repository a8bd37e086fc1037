import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { defaultDataDir } from "@/lib/server/db";

/** The demo key of the embedded database, kept beside its directory (local state, not in git). */
export function demoKeyPath(): string {
  return join(dirname(defaultDataDir()), "demo-key");
}

/** The embedded database's demo key, when `npm start` created one. */
export function readDemoKey(): string | undefined {
  const path = demoKeyPath();
  return existsSync(path) ? readFileSync(path, "utf8").trim() : undefined;
}
