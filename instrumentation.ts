import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Runs once when the Next.js server starts. Under `npm start` (CUESCOPE_SERVER_URL set), opens the
 * database right away: the embedded directory is locked from the start, with this server's address
 * in the lock, and the log says which database is served.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return; // Next's own variable: which runtime loads this
  // The answers scripts/server.mjs writes to the socket itself (lib/server/http/direct.ts): only
  // GET and HEAD requests of /api are asked about (the module, with every route, is loaded by the
  // first). A module that cannot be loaded is logged once and leaves every request to Next.js.
  let direct: Promise<((req: IncomingMessage, res: ServerResponse) => Promise<boolean>) | null> | undefined;
  (globalThis as { cuescopeDirect?: unknown }).cuescopeDirect = async (req: IncomingMessage, res: ServerResponse) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !req.url?.startsWith("/api/")) return false;
    direct ??= import("./lib/server/http/direct").then(
      (module) => module.serveDirect,
      (error: unknown) => {
        console.error("[cuescope] cannot load lib/server/http/direct.ts; Next.js serves every request", error);
        return null;
      },
    );
    const serve = await direct;
    return serve ? serve(req, res) : false;
  };
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
