import { healthRoute } from "@/lib/server/http/service-routes";

/** The answer of `GET /api/v1/health`, with how long it took (ms): status, JSON body and Retry-After. */
export interface HealthAnswer {
  status: number;
  ms: number;
  body: { ok: boolean; service: string; database: string; error?: { code: string; message: string } };
  retryAfter: string | null;
}

/** Asks the health route (in-process, as the server would answer it) and times the answer. */
export async function askHealth(): Promise<HealthAnswer> {
  const started = Date.now();
  const response = await healthRoute(new Request("http://127.0.0.1/api/v1/health"));
  return {
    status: response.status,
    ms: Date.now() - started,
    body: await response.json(),
    retryAfter: response.headers.get("retry-after"),
  };
}
