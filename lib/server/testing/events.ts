/** Small raw-event builders for server tests (valid per contract §4 unless a test breaks them on purpose). */
export type Raw = Record<string, unknown>;

export function startedEvent(runId: string, id = `${runId}-start`, extra: Raw = {}): Raw {
  return {
    id,
    runId,
    type: "run.started",
    ts: "2026-11-29T10:00:00.000Z",
    body: {
      task: `Compare fees of VOO, IVV and SPLG (${runId})`,
      agent: "etf-agent",
      model: "m-large",
      policy: {
        requests: { limit: 40, deliveryReserve: 4, stages: [0.5, 0.75, 0.9] },
        context: { capacityBytes: 10000, stages: [0.7, 0.85, 0.95] },
        review: { everyTurns: 10 },
      },
      ...extra,
    },
  };
}

/** One whole turn: requests reading, final request, ok submission. */
export function turnEvents(runId: string, turn: number, used: number, requiredBytes: number): Raw[] {
  const ts = (ms: number) => new Date(Date.UTC(2026, 10, 29, 10, 0, turn, ms)).toISOString();
  const id = (n: number) => `${runId}-${String(turn).padStart(4, "0")}-${n}`;
  return [
    { id: id(1), runId, type: "meter.requests", ts: ts(0), turn, body: { used } },
    { id: id(2), runId, type: "request.final", ts: ts(100), turn, body: { requiredBytes } },
    { id: id(3), runId, type: "request.submitted", ts: ts(200), turn, body: { outcome: "ok" } },
  ];
}

export function endedEvent(runId: string, status = "completed"): Raw {
  return { id: `${runId}-end`, runId, type: "run.ended", ts: "2026-11-29T11:00:00.000Z", body: { status } };
}

/** A small complete run: started, `turns` turns with rising requests and bytes, ended. */
export function smallRun(runId: string, turns = 12): Raw[] {
  const events = [startedEvent(runId)];
  for (let t = 0; t < turns; t++) events.push(...turnEvents(runId, t, 2 + t * 3, 4000 + t * 500));
  events.push(endedEvent(runId));
  return events;
}
