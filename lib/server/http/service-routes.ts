import "server-only";
import type { THealth } from "@/lib/contracts";
import { openApiDocument } from "@/lib/api-docs/document";
import { serviceApi } from "@/lib/endpoints/service";
import { checkDatabase } from "@/lib/server/db/health";
import { eventLoopLag } from "@/lib/server/event-loop-lag";
import { getBackground } from "@/lib/server/background/background";
import { json } from "./errors-to-response";
import { endpointRoute } from "./endpoint-route";

/**
 * Which database this server uses; no key needed, no data shown. 200 when the database answers
 * `SELECT 1` within CUESCOPE_HEALTH_TIMEOUT_MS (3 s), else 503 with Retry-After. Also starts this
 * process's background work (lib/server/background/background.ts) if it has not started. Either way it
 * reports the recent worst event-loop lag (lib/server/event-loop-lag.ts).
 */
export const healthRoute = endpointRoute(
  serviceApi.health,
  async () => {
    eventLoopLag(); // starts the monitor on the first call (scripts/server.mjs asks as soon as it listens)
    const health = await checkDatabase();
    const eventLoop = eventLoopLag();
    if (health.ok) {
      // The server's background work starts with its first request; scripts/server.mjs asks here as
      // soon as it listens, so the queue is worked (and stale runs swept) from the start.
      void getBackground().catch((error) => console.error("[cuescope] background work did not start:", error));
      return { ok: true, service: "cuescope", database: health.database, eventLoop } satisfies THealth;
    }
    console.error(`[cuescope] health: database unavailable: ${health.reason}`);
    return json(
      503,
      {
        ok: false,
        service: "cuescope",
        database: health.database,
        eventLoop,
        error: { code: "unavailable", message: "the database is unavailable right now (the reason is in the server log); retry later" },
      } satisfies THealth,
      { "retry-after": "5" },
    );
  },
  { noDatabase: true },
);

/**
 * The OpenAPI 3.1 document of this API (lib/api-docs); no key needed, it documents the API and
 * shows no data. It changes only with the code, so caches may keep it a while.
 */
export const openApiRoute = endpointRoute(
  serviceApi.openApi,
  async () =>
    new Response(JSON.stringify(openApiDocument()), {
      status: 200,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "cache-control": "public, max-age=300, stale-while-revalidate=3600",
        "access-control-allow-origin": "*",
      },
    }),
  { noDatabase: true },
);
