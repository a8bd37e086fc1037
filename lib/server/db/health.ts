import { getDb } from "./index";
import { withDeadline } from "./timeouts";
import { env, type EnvSource } from "@/lib/server/env";

export type DatabaseHealth = { ok: true; database: "postgres" | "pglite" } | { ok: false; database: "postgres" | "pglite"; reason: string };

/** The health check's limit: CUESCOPE_HEALTH_TIMEOUT_MS, default 3 s. */
export function healthTimeoutMs(source: EnvSource = process.env): number {
  return env("CUESCOPE_HEALTH_TIMEOUT_MS", source);
}

/**
 * Whether the server's database answers `SELECT 1` within `timeoutMs` (opening it included). Never
 * throws: a failure of any kind is "not healthy", with the reason for the log and the answer.
 */
export async function checkDatabase(timeoutMs = healthTimeoutMs()): Promise<DatabaseHealth> {
  const configured = env("DATABASE_URL") ? "postgres" : "pglite";
  const started = Date.now();
  try {
    const db = await withDeadline(getDb(), timeoutMs, "opening the database");
    const left = Math.max(1, timeoutMs - (Date.now() - started));
    await withDeadline(db.prisma.$queryRaw`SELECT 1`, left, "SELECT 1");
    return { ok: true, database: db.kind };
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split("\n").filter(Boolean).slice(-1)[0] ?? error.name) : String(error);
    return { ok: false, database: configured, reason };
  }
}
