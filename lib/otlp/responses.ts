import { WireWriter } from "./wire";

/**
 * The OTLP/HTTP answers (docs/contract/otlp.md#answers): ExportTraceServiceResponse and
 * ExportLogsServiceResponse with their partial success, and google.rpc.Status for errors, each as
 * protobuf bytes or as OTLP/JSON.
 */

export type Signal = "traces" | "logs";

/** What was not accepted: how many spans or log records, and why (empty when all were accepted). */
export interface PartialSuccess {
  rejected: number;
  errorMessage: string;
}

const REJECTED_FIELD: Record<Signal, string> = { traces: "rejectedSpans", logs: "rejectedLogRecords" };

/** Export*ServiceResponse { partial_success = 1 { rejected_* = 1; error_message = 2 } }; an empty message when all was accepted. */
export function exportResponseProto(partial: PartialSuccess): Uint8Array {
  const response = new WireWriter();
  if (partial.rejected > 0 || partial.errorMessage !== "") {
    response.message(1, new WireWriter().int(1, partial.rejected).string(2, partial.errorMessage));
  }
  return response.finish();
}

/** The same in OTLP/JSON (the int64 count as a number). */
export function exportResponseJson(signal: Signal, partial: PartialSuccess): Record<string, unknown> {
  if (partial.rejected === 0 && partial.errorMessage === "") return {};
  return { partialSuccess: { [REJECTED_FIELD[signal]]: partial.rejected, errorMessage: partial.errorMessage } };
}

/** The gRPC status code (google.rpc.Code) that goes with an HTTP error status. */
export function grpcCode(httpStatus: number): number {
  const codes: Record<number, number> = { 400: 3, 401: 16, 403: 7, 404: 5, 409: 6, 413: 8, 415: 3, 429: 8, 503: 14 };
  return codes[httpStatus] ?? 13;
}

/** google.rpc.Status { code = 1; message = 2 } */
export function statusProto(httpStatus: number, message: string): Uint8Array {
  return new WireWriter().int(1, grpcCode(httpStatus)).string(2, message).finish();
}
