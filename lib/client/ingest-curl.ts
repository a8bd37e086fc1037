/** The shell variable that stands for a key: pages never show one (a session is not a key). */
export const API_KEY_PLACEHOLDER = "$CUESCOPE_API_KEY";

/** The first event a new integration sends: a run.started with a small requests policy. */
export function firstEvent(ts: string) {
  return {
    id: "first-run:0001",
    runId: "first-run",
    type: "run.started",
    ts,
    body: {
      task: "My first Cuescope run",
      agent: "my-agent",
      model: "my-model",
      policy: { requests: { limit: 60, deliveryReserve: 6, stages: [0.5, 0.75, 0.9] } },
    },
  };
}

/**
 * A copy-paste `curl` that sends one batch to the ingestion API, the key read from the shell
 * variable `$CUESCOPE_API_KEY` (double quotes, so the shell expands it).
 */
export function ingestCurl(url: string, ts: string): string {
  const body = JSON.stringify({ batch: [firstEvent(ts)] });
  return [
    `curl -X POST ${url} \\`,
    `  -H "Authorization: Bearer ${API_KEY_PLACEHOLDER}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '${body}'`,
  ].join("\n");
}
