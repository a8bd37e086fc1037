import type { TOtlpRecord } from "@/lib/contracts";

/** One bar of the model requests chart: a request's provider-reported tokens (in tokens, never bytes). */
export interface ModelRequestBar {
  /** "turn 12" when the span named its turn (cuescope.turn), else "#3" (its place in time order). */
  label: string;
  model: string | null;
  input: number;
  output: number;
}

/**
 * The model requests of a page of OTLP records (docs/contract/otlp.md#genai-spans) as bars, in
 * time order; requests whose provider reported no tokens are left out of the chart (the table
 * still lists them).
 */
export function modelRequestBars(records: readonly TOtlpRecord[]): ModelRequestBar[] {
  const requests = records.filter((r) => r.kind === "model_request" && r.modelRequest);
  return requests.flatMap((record, i) => {
    const request = record.modelRequest!;
    if (request.inputTokens === null && request.outputTokens === null) return [];
    return [
      {
        label: record.turn !== null ? `turn ${record.turn}` : `#${i + 1}`,
        model: request.model,
        input: request.inputTokens ?? 0,
        output: request.outputTokens ?? 0,
      },
    ];
  });
}

/** What a raw record is called in a list: the span's name or the log record's event name, else its kind. */
export function otlpRecordName(record: TOtlpRecord): string {
  const name = record.data.name ?? record.data.eventName;
  return typeof name === "string" && name !== "" ? name : record.kind === "log" ? "log record" : "span";
}
