import type { OtlpRecordDraft } from "./records";

/** What an OTLP export request maps to (docs/contract/otlp.md#mapping). */
export interface Mapped {
  /** Telemetry v1 events, to be ingested like posted ones. `item` is the span or log record they came from. */
  events: { item: number; origin: string; event: Record<string, unknown> }[];
  /** Records kept besides events: model requests, raw spans and log records. */
  records: (OtlpRecordDraft & { item: number; origin: string })[];
  /** Parts refused while mapping, with the reason. */
  rejections: { item: number; origin: string; message: string }[];
  /** How many spans or log records the request held (`item` runs from 0 to items − 1). */
  items: number;
}

export function emptyMapped(): Mapped {
  return { events: [], records: [], rejections: [], items: 0 };
}
