/**
 * The raw-INSERT baseline the ingest benchmarks compare `ingestBatch` with: the same row values the
 * service stores (prepared outside the timing), written by plain multi-row INSERTs.
 */
import { createHash } from "node:crypto";
import { parseInstant } from "@/lib/contracts";
import { canonicalJson } from "@/lib/core";
import type { TRawEvent } from "@/lib/demo/etf-run";

/** The events columns a raw row fills, in `rawEventRow`'s order. */
const COLUMNS = `"project_id","run_pk","event_id","type","ts","at","turn","body","content_hash"`;

/** One event as the row `ingestBatch` would store for it (the body as JSON text, the content hash). */
export function rawEventRow(projectId: string, runPk: string | undefined, e: TRawEvent): unknown[] {
  return [
    projectId,
    runPk,
    e.id,
    e.type,
    e.ts,
    new Date(parseInstant(e.ts)!.ms),
    e.turn ?? null,
    JSON.stringify(e.body),
    createHash("sha256").update(canonicalJson(e)).digest("hex"),
  ];
}

/** The multi-row INSERT of `rows` (from `rawEventRow`) into `table`, with its parameters. */
export function rawInsert(table: string, rows: readonly unknown[][]): { sql: string; params: unknown[] } {
  const values = rows.map((_, n) => `(${Array.from({ length: 9 }, (_, c) => `$${n * 9 + c + 1}`).join(",")})`).join(",");
  return { sql: `INSERT INTO "${table}" (${COLUMNS}) VALUES ${values} ON CONFLICT DO NOTHING`, params: rows.flat() };
}
