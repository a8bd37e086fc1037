import { ZOtlpModelRequest, type TOtlpRecord, type TOtlpRecordsQuery, type TOtlpRecordsResponse } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";

/**
 * `GET /api/v1/runs/:runId/otlp`: a run's OTLP records (docs/contract/otlp.md#reading-them) in
 * (ts, key) keyset pages, with the run's counts by kind and token sums. A run id may name a trace
 * with no telemetry run: it is answered while it has records; 404 when there is neither.
 */
export async function listOtlpRecords(
  db: Database,
  projectId: string,
  runId: string,
  query: TOtlpRecordsQuery,
): Promise<TOtlpRecordsResponse> {
  const after = query.cursor !== undefined ? parseCursor(query.cursor) : null;
  // The counts first: most runs have no records, and their answer (on every run page) is then one query.
  const byKind = await db.prisma.otlpRecord.groupBy({ by: ["kind"], where: { projectId, runId }, _count: { _all: true } });
  const count = (kind: string) => byKind.find((k) => k.kind === kind)?._count._all ?? 0;
  const counts = { modelRequests: count("model_request"), spans: count("span"), logs: count("log") };
  if (counts.modelRequests + counts.spans + counts.logs === 0) {
    const run = await db.prisma.run.findUnique({ where: { projectId_runId: { projectId, runId } }, select: { id: true } });
    if (!run) throw new DomainError("not_found", `no run or OpenTelemetry records ${JSON.stringify(runId)} in this project`, "runId");
    return { runId, counts, tokens: { input: 0, output: 0 }, records: [], nextCursor: null };
  }
  const [tokenRows, rows] = await Promise.all([
    counts.modelRequests === 0
      ? []
      : db.prisma.$queryRaw<{ input: string | null; output: string | null }[]>`
      SELECT sum((data->>'inputTokens')::numeric)::text AS input, sum((data->>'outputTokens')::numeric)::text AS output
      FROM otlp_records
      WHERE project_id = ${projectId} AND run_id = ${runId} AND kind = 'model_request'`,
    db.prisma.otlpRecord.findMany({
      where: {
        projectId,
        runId,
        ...(query.kind ? { kind: query.kind } : {}),
        ...(after ? { OR: [{ ts: { gt: after.ts } }, { ts: after.ts, recordKey: { gt: after.key } }] } : {}),
      },
      orderBy: [{ ts: "asc" }, { recordKey: "asc" }],
      take: query.limit + 1,
    }),
  ]);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    runId,
    counts,
    tokens: { input: Number(tokenRows[0]?.input ?? 0), output: Number(tokenRows[0]?.output ?? 0) },
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
