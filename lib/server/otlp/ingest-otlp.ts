import { MAX_BATCH_EVENTS, type TIngestResult } from "@/lib/contracts";
import type { Mapped } from "@/lib/otlp/mapped";
import type { PartialSuccess } from "@/lib/otlp/responses";
import type { Database } from "@/lib/server/db";
import { isRowRefused, refusalReason } from "@/lib/server/db/errors";
import { ingestBatch, type IngestOptions } from "@/lib/server/ingest/ingest-batch";
import { storeOtlpRecords } from "./store-records";

/** How many rejections the partial success message spells out before it only counts the rest. */
const MESSAGE_PROBLEMS = 20;

export type OtlpIngestResult = PartialSuccess;

type MappedEvent = Mapped["events"][number];

/**
 * Stores what an OTLP export maps to (docs/contract/otlp.md): its telemetry events through the same
 * ingestBatch as `POST /api/v1/ingest` (same validation, idempotency and conflicts, in batches of at
 * most MAX_BATCH_EVENTS), and its records once per key. A span or log record is rejected when any
 * of its parts was: the count is of spans (or log records), the message names each part and why.
 * A part the database refuses for what it holds is rejected alone, with the database's reason: the
 * export is still answered 200 with the rest stored (OTLP exporters drop an export answered 500).
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
    const results = await ingestEvents(db, projectId, slice, options);
    results.forEach((result, i) => {
      if (result.status === "error" && result.error) {
        const { item, origin } = slice[i];
        problems.push({ item, text: `${origin}: ${result.error.path ? `${result.error.path}: ` : ""}${result.error.message}` });
      }
    });
  }
  const { refused } = await storeOtlpRecords(db, projectId, mapped.records);
  const reasons = new Map(refused.map((r) => [r.key, r.reason]));
  for (const record of mapped.records) {
    const reason = reasons.get(record.key);
    if (reason !== undefined) problems.push({ item: record.item, text: `${record.origin}: the database could not store it: ${reason}` });
  }
  const rejected = new Set(problems.map((p) => p.item)).size;
  const shown = problems.slice(0, MESSAGE_PROBLEMS).map((p) => p.text);
  const more = problems.length > MESSAGE_PROBLEMS ? ` (and ${problems.length - MESSAGE_PROBLEMS} more)` : "";
  return { rejected, errorMessage: shown.length ? shown.join("; ") + more : "" };
}

/**
 * One result per event, as ingestBatch answers. Should the database refuse the batch for what one
 * of its events holds (isRowRefused; the event checks are meant to make that impossible), the batch
 * is stored again in halves, so that event is rejected alone and the others are stored: a refused
 * statement stored nothing, and a re-send of an event stored meanwhile is a duplicate.
 */
async function ingestEvents(
  db: Database,
  projectId: string,
  events: readonly MappedEvent[],
  options: Pick<IngestOptions, "onStored">,
): Promise<TIngestResult[]> {
  try {
    const response = await ingestBatch(
      db,
      projectId,
      events.map((e) => e.event),
      options,
    );
    return response.results;
  } catch (error) {
    if (!isRowRefused(error)) throw error;
    if (events.length === 1) {
      const id = typeof events[0].event.id === "string" ? events[0].event.id : null;
      return [{ id, status: "error", error: { path: "", message: `the database could not store it: ${refusalReason(error)}` } }];
    }
    const half = Math.ceil(events.length / 2);
    return [
      ...(await ingestEvents(db, projectId, events.slice(0, half), options)),
      ...(await ingestEvents(db, projectId, events.slice(half), options)),
    ];
  }
}
