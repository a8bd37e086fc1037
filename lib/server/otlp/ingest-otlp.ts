import { MAX_BATCH_EVENTS } from "@/lib/contracts";
import type { Mapped } from "@/lib/otlp/mapped";
import type { PartialSuccess } from "@/lib/otlp/responses";
import type { Database } from "@/lib/server/db";
import { ingestBatch, type IngestOptions } from "@/lib/server/ingest/ingest-batch";
import { storeOtlpRecords } from "./store-records";

/** How many rejections the partial success message spells out before it only counts the rest. */
const MESSAGE_PROBLEMS = 20;

export type OtlpIngestResult = PartialSuccess;

/**
 * Stores what an OTLP export maps to (docs/contract/otlp.md): its telemetry events through the same
 * ingestBatch as `POST /api/v1/ingest` (same validation, idempotency and conflicts, in batches of at
 * most MAX_BATCH_EVENTS), and its records once per key. A span or log record is rejected when any
 * of its parts was: the count is of spans (or log records), the message names each part and why.
 */
export async function ingestOtlp(
  db: Database,
  projectId: string,
  mapped: Mapped,
  options: Pick<IngestOptions, "onStored"> = {},
): Promise<OtlpIngestResult> {
  const problems = mapped.rejections.map((r) => ({ item: r.item, text: `${r.origin}: ${r.message}` }));
  for (let start = 0; start < mapped.events.length; start += MAX_BATCH_EVENTS) {
    const slice = mapped.events.slice(start, start + MAX_BATCH_EVENTS);
    const response = await ingestBatch(
      db,
      projectId,
      slice.map((e) => e.event),
      options,
    );
    response.results.forEach((result, i) => {
      if (result.status === "error" && result.error) {
        const { item, origin } = slice[i];
        problems.push({ item, text: `${origin}: ${result.error.path ? `${result.error.path}: ` : ""}${result.error.message}` });
      }
    });
  }
  await storeOtlpRecords(db, projectId, mapped.records);
  const rejected = new Set(problems.map((p) => p.item)).size;
  const shown = problems.slice(0, MESSAGE_PROBLEMS).map((p) => p.text);
  const more = problems.length > MESSAGE_PROBLEMS ? ` (and ${problems.length - MESSAGE_PROBLEMS} more)` : "";
  return { rejected, errorMessage: shown.length ? shown.join("; ") + more : "" };
}
