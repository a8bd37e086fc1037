import { decodeLogsJson, decodeTracesJson, OtlpJsonError } from "./decode-json";
import { decodeLogsProto, decodeTracesProto } from "./decode-proto";
import { ItemBudget } from "./limits";
import { mapLogs } from "./map-logs";
import { mapTraces } from "./map-traces";
import type { Mapped } from "./mapped";
import type { Signal } from "./responses";
import { WireError } from "./wire";

export type Encoding = "protobuf" | "json";

/** A body that cannot be read as the export request it should be; the message says where and why. */
export class OtlpDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OtlpDecodeError";
  }
}

/**
 * Decodes an export request body (already decompressed) and maps it (docs/contract/otlp.md). An
 * export with more items than the limit throws OtlpLimitError (./limits.ts) as soon as decoding
 * reaches it, before anything is mapped.
 */
export function decodeAndMap(signal: Signal, encoding: Encoding, body: Uint8Array): Mapped {
  const budget = new ItemBudget();
  try {
    if (encoding === "protobuf") {
      return signal === "traces" ? mapTraces(decodeTracesProto(body, budget)) : mapLogs(decodeLogsProto(body, budget));
    }
    const value = parseJson(body);
    return signal === "traces" ? mapTraces(decodeTracesJson(value, budget)) : mapLogs(decodeLogsJson(value, budget));
  } catch (error) {
    if (error instanceof WireError)
      throw new OtlpDecodeError(`the body is not a valid ${requestName(signal)} in protobuf: ${error.message}`);
    if (error instanceof OtlpJsonError)
      throw new OtlpDecodeError(`the body is not a valid ${requestName(signal)} in OTLP/JSON: ${error.message}`);
    throw error;
  }
}

function requestName(signal: Signal): string {
  return signal === "traces" ? "ExportTraceServiceRequest" : "ExportLogsServiceRequest";
}

function parseJson(body: Uint8Array): unknown {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    throw new OtlpDecodeError("the body is not valid UTF-8");
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new OtlpDecodeError(`the body is not valid JSON: ${(error as Error).message}`);
  }
}
