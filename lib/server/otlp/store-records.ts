import type { OtlpRecordDraft } from "@/lib/otlp/records";
import type { Database } from "@/lib/server/db";

/**
 * Stores OTLP records (docs/contract/otlp.md#stored-records) once per project and key: a record whose
 * key is stored already is left as it is (`ON CONFLICT DO NOTHING`), so re-exports store nothing new
 * and concurrent exports of the same records store each once. Returns how many were new.
 */
export async function storeOtlpRecords(db: Database, projectId: string, records: readonly OtlpRecordDraft[]): Promise<number> {
  if (records.length === 0) return 0;
  // One row per key even within a request (an exporter may send a span twice in one batch).
  const unique = [...new Map(records.map((r) => [r.key, r])).values()];
  let created = 0;
  // In slices, so a big export stays far below PostgreSQL's 65,535 bind parameters per statement.
  for (let start = 0; start < unique.length; start += ROWS_PER_STATEMENT) {
    const { count } = await db.prisma.otlpRecord.createMany({
      data: unique.slice(start, start + ROWS_PER_STATEMENT).map((r) => ({
        projectId,
        recordKey: r.key,
        runId: r.runId,
        kind: r.kind,
        ts: new Date(r.ts),
        turn: r.turn,
        data: r.data,
      })),
      skipDuplicates: true,
    });
    created += count;
  }
  return created;
}

const ROWS_PER_STATEMENT = 1000;
