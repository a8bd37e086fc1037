/**
 * Limits of one OTLP export (docs/contract/otlp.md#limits), checked while decoding so that memory
 * stays bounded whatever the body holds.
 */

/**
 * Most spans + span events + log records in one export. The OpenTelemetry batch processors send at
 * most 512 spans (or log records) per export by default; this leaves room for about 18 events per
 * span on average.
 */
export const MAX_EXPORT_ITEMS = 10_000;

/** An export holding more than MAX_EXPORT_ITEMS items; answered 413 before anything is mapped. */
export class OtlpLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OtlpLimitError";
  }
}

/** Counts the items decoded so far and stops decoding as soon as there are too many. */
export class ItemBudget {
  private count = 0;

  constructor(private readonly max: number = MAX_EXPORT_ITEMS) {}

  /** One more span, span event or log record; throws OtlpLimitError past the limit. */
  take(): void {
    this.count++;
    if (this.count > this.max) {
      throw new OtlpLimitError(
        `the export holds more than ${this.max} spans, span events and log records; export smaller batches ` +
          `(for example a lower maxExportBatchSize in the batch processor)`,
      );
    }
  }
}
