/**
 * The embedded database thread's entry (lib/server/db/pglite-remote.ts starts it): plain
 * JavaScript, so the thread starts wherever the server runs (Next's build, tsx, vitest), as the job
 * threads' entry does (lib/server/background/thread-entry.mjs) — it registers tsx to load the
 * TypeScript sources, then opens the database and serves statements.
 */
import { register as registerCjs } from "tsx/cjs/api";
import { register as registerEsm } from "tsx/esm/api";

registerCjs();
registerEsm();
await import("./pglite-thread.ts");
