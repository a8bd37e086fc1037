/**
 * A job thread's entry (lib/server/jobs/threads.ts starts it, as lib/server/background/tasks.ts tells it): plain JavaScript, so the thread can
 * start wherever the server runs (Next's build, tsx, vitest) — it registers tsx (for both module
 * systems, as `node --import tsx` does) to load the TypeScript task code straight from the sources,
 * then serves tasks.
 */
import { register as registerCjs } from "tsx/cjs/api";
import { register as registerEsm } from "tsx/esm/api";

registerCjs();
registerEsm();
await import("./thread.ts");
