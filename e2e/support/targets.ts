import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { TestInfo } from "@playwright/test";

/** Where the e2e servers keep their state (local, not in git). */
export const E2E_DIR = ".cuescope/e2e";
export const E2E_PG_DIR = ".cuescope/e2e-pg";
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
/** Where the app under test writes its first administrator's setup link (CUESCOPE_SETUP_LINK_FILE). */
export const E2E_SETUP_LINK = join(E2E_DIR, "setup-link");

/** One running server the API specs are pointed at, and the file holding its API key. */
export interface ApiTarget {
  database: "pglite" | "postgres";
  baseURL: string;
  keyFile: string;
}

export function apiTargets(): ApiTarget[] {
  const external = process.env.E2E_BASE_URL;
  const targets: ApiTarget[] = [
    { database: "pglite", baseURL: external ?? `http://127.0.0.1:${E2E_PORT}`, keyFile: join(E2E_DIR, "demo-key") },
  ];
  if (process.env.DATABASE_URL && !external) {
    targets.push({ database: "postgres", baseURL: `http://127.0.0.1:${E2E_PORT + 1}`, keyFile: join(E2E_PG_DIR, "key") });
  }
  return targets;
}

/** The target of the running API project (projects `api-pglite` and `api-postgres`). */
export function apiTarget(info: TestInfo): ApiTarget & { key: string } {
  const target = info.project.metadata.target as ApiTarget;
  return { ...target, key: readFileSync(target.keyFile, "utf8").trim() };
}
