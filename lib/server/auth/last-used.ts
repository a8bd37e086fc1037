import type { Database } from "@/lib/server/db";

/** A key's `last_used_at` is written at most this often per process (ms): the key page shows it to the minute. */
export const LAST_USED_EVERY_MS = 60_000;

const LAST_WRITTEN = Symbol.for("cuescope.keyLastUsed");
/** Key id → when this process last wrote its last use (kept on globalThis: the server bundles modules more than once). */
const written: Map<string, number> = ((globalThis as { [LAST_WRITTEN]?: Map<string, number> })[LAST_WRITTEN] ??= new Map());

/**
 * Records that a key authenticated a request: one UPDATE per key and minute per process, so a busy
 * agent's key costs one statement a minute, not one a request. Awaited by the caller, so no write is
 * left running after the request (a test's database may close right after).
 */
export async function noteKeyUse(db: Database, keyId: string, now = new Date()): Promise<void> {
  const last = written.get(keyId);
  if (last !== undefined && now.getTime() - last < LAST_USED_EVERY_MS) return;
  if (written.size > 10_000) written.clear();
  written.set(keyId, now.getTime());
  await db.executeSql(`UPDATE "api_keys" SET "last_used_at" = $2 WHERE "id" = $1 AND ("last_used_at" IS NULL OR "last_used_at" < $2)`, [
    keyId,
    now.toISOString(),
  ]);
}
