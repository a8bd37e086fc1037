import type { OtlpRecordDraft } from "@/lib/otlp/records";
import type { Database } from "@/lib/server/db";
import { isRowRefused, refusalReason } from "@/lib/server/db/errors";

/** What storing a request's records did: how many were new, and the keys the database refused, each with why. */
export interface StoredRecords {
  created: number;
  refused: { key: string; reason: string }[];
}

/**
 * Stores OTLP records (docs/contract/otlp.md#stored-records) once per project and key: a record whose
 * key is stored already is left as it is (`ON CONFLICT DO NOTHING`), so re-exports store nothing new
 * and concurrent exports of the same records store each once.
 *
 * A record the database refuses for what it holds (isRowRefused: a value out of range, an index row
 * too big, a check) is refused alone: its slice is stored again one record per statement, and the
 * others are kept. A transient database error is thrown (503: the exporter retries the whole export,
 * which stores nothing twice).
 */
export async function storeOtlpRecords(db: Database, projectId: string, records: readonly OtlpRecordDraft[]): Promise<StoredRecords> {
  const out: StoredRecords = { created: 0, refused: [] };
  if (records.length === 0) return out;
  // One row per key even within a request (an exporter may send a span twice in one batch).
  const unique = [...new Map(records.map((r) => [r.key, r])).values()];
  // In slices, so a big export stays far below PostgreSQL's 65,535 bind parameters per statement.
  for (let start = 0; start < unique.length; start += ROWS_PER_STATEMENT) {
    const slice = unique.slice(start, start + ROWS_PER_STATEMENT);
    try {
      out.created += await insertRows(db, projectId, slice);
    } catch (error) {
      if (!isRowRefused(error)) throw error;
      for (const record of slice) {
        try {
          out.created += await insertRows(db, projectId, [record]);
        } catch (rowError) {
          if (!isRowRefused(rowError)) throw rowError;
          out.refused.push({ key: record.key, reason: refusalReason(rowError) });
        }
      }
    }
  }
  if (out.refused.length > 0) {
    console.error(`[cuescope] OTLP: the database refused ${out.refused.length} record(s), first ${out.refused[0].reason}`);
  }
  return out;
}

async function insertRows(db: Database, projectId: string, rows: readonly OtlpRecordDraft[]): Promise<number> {
  const { count } = await db.prisma.otlpRecord.createMany({
    data: rows.map((r) => ({
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
  return count;
}

const ROWS_PER_STATEMENT = 1000;
