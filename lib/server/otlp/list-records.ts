import { ZOtlpModelRequest, type TOtlpRecord, type TOtlpRecordsQuery, type TOtlpRecordsResponse } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";

/**
 * `GET /api/v1/runs/:runId/otlp`: a run's OTLP records (docs/contract/otlp.md#reading-them) in
 * (ts, key) keyset pages, with the run's counts by kind and token sums (kept as the records are
 * stored: migration 20270108000000_otlp_run_totals). A run id may name a trace
 * with no telemetry run: it is answered while it has records; 404 when there is neither.
 */
export async function listOtlpRecords(
  db: Database,
  projectId: string,
  runId: string,
  query: TOtlpRecordsQuery,
): Promise<TOtlpRecordsResponse> {
  const after = query.cursor !== undefined ? parseCursor(query.cursor) : null;
  // The run's counts and token sums as the records' triggers keep them (otlp_run_totals): one row per
  // kind, however many records the run has. Most runs have none, and their answer is then one query.
  const totals = await db.prisma.otlpRunTotal.findMany({ where: { projectId, runId } });
  const total = (kind: string) => totals.find((t) => t.kind === kind);
  const count = (kind: string) => Number(total(kind)?.records ?? 0);
  const counts = { modelRequests: count("model_request"), spans: count("span"), logs: count("log") };
  const requests = total("model_request");
  const tokens = { input: Number(requests?.inputTokens ?? 0), output: Number(requests?.outputTokens ?? 0) };
  if (counts.modelRequests + counts.spans + counts.logs === 0) {
    const run = await db.prisma.run.findUnique({ where: { projectId_runId: { projectId, runId } }, select: { id: true } });
    if (!run) throw new DomainError("not_found", `no run or OpenTelemetry records ${JSON.stringify(runId)} in this project`, "runId");
    return { runId, counts, tokens, records: [], nextCursor: null };
  }
  const rows = await db.prisma.otlpRecord.findMany({
    where: {
      projectId,
      runId,
      ...(query.kind ? { kind: query.kind } : {}),
      ...(after ? { OR: [{ ts: { gt: after.ts } }, { ts: after.ts, recordKey: { gt: after.key } }] } : {}),
    },
    orderBy: [{ ts: "asc" }, { recordKey: "asc" }],
    take: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    runId,
    counts,
    tokens,
    records: page.map(toDto),
    nextCursor: rows.length > query.limit && last ? makeCursor(last.ts, last.recordKey) : null,
  };
}

type Row = { recordKey: string; runId: string; kind: string; ts: Date; turn: number | null; data: unknown; receivedAt: Date };

function toDto(row: Row): TOtlpRecord {
  const data = (row.data ?? {}) as Record<string, unknown>;
  const modelRequest = row.kind === "model_request" ? ZOtlpModelRequest.safeParse(data) : null;
  return {
    kind: row.kind as TOtlpRecord["kind"],
    key: row.recordKey,
    runId: row.runId,
    ts: row.ts.toISOString(),
    turn: row.turn,
    receivedAt: row.receivedAt.toISOString(),
    modelRequest: modelRequest?.success ? modelRequest.data : null,
    data,
  };
}

function makeCursor(ts: Date, key: string): string {
  return Buffer.from(JSON.stringify([ts.toISOString(), key])).toString("base64url");
}

function parseCursor(cursor: string): { ts: Date; key: string } {
  try {
    const [ts, key] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    if (typeof ts === "string" && typeof key === "string" && !Number.isNaN(Date.parse(ts))) return { ts: new Date(ts), key };
  } catch {
    // refused below
  }
  throw new DomainError("invalid", "query.cursor: expected the nextCursor of a previous page", "cursor");
}
