import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Runs once when the Next.js server starts. Under `npm start` (CUESCOPE_SERVER_URL set), opens the
 * database right away: the embedded directory is locked from the start, with this server's address
 * in the lock, and the log says which database is served.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return; // Next's own variable: which runtime loads this
  // The answers scripts/server.mjs writes to the socket itself (lib/server/http/direct.ts); the
  // module is loaded by the first request.
  (globalThis as { cuescopeDirect?: unknown }).cuescopeDirect = async (req: IncomingMessage, res: ServerResponse) =>
    (await import("./lib/server/http/direct")).serveDirect(req, res);
  const { env } = await import("./lib/server/env");
  const serverUrl = env("CUESCOPE_SERVER_URL");
  if (!serverUrl) return;
  const { getDb } = await import("./lib/server/db");
  try {
    const db = await getDb();
    console.log(`cuescope: serving ${db.label} at ${serverUrl}`);
  } catch (error) {
    console.error(`cuescope: cannot open the database yet: ${(error as Error).message}`);
  }
}
