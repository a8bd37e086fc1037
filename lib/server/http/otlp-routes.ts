import "server-only";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { MAX_BATCH_BYTES } from "@/lib/contracts";
import { decodeAndMap, OtlpDecodeError, type Encoding } from "@/lib/otlp/decode";
import { OtlpLimitError } from "@/lib/otlp/limits";
import { exportResponseJson, exportResponseProto, statusProto, type Signal } from "@/lib/otlp/responses";
import { ingestApi } from "@/lib/endpoints/ingest";
import { DomainError } from "@/lib/server/errors";
import { ingestOtlp } from "@/lib/server/otlp/ingest-otlp";
import { endpointRoute } from "./endpoint-route";
import { errorAnswer, json } from "./errors-to-response";
import { formatMb, readBodyBytes } from "./request";
import { scheduleRebuildsOf } from "./schedule-rebuilds";

const gunzipAsync = promisify(gunzip);

/** OTLP/HTTP traces (docs/contract/otlp.md). */
export const otlpTracesRoute = otlpExportRoute("traces");

/** OTLP/HTTP logs (docs/contract/otlp.md). */
export const otlpLogsRoute = otlpExportRoute("logs");

/** The body encodings OTLP/HTTP has, by Content-Type; null for any other. */
function encodingOf(contentType: string | null): Encoding | null {
  if (contentType === null) return null;
  if (/^application\/x-protobuf\s*(;|$)/i.test(contentType)) return "protobuf";
  if (/^application\/json\s*(;|$)/i.test(contentType)) return "json";
  return null;
}

/**
 * An OTLP/HTTP export route: the key (any of the exporter forms, checked by endpointRoute), the
 * body (at most MAX_BATCH_BYTES as sent and again once gunzipped), decoded, mapped and stored;
 * answered with the Export*ServiceResponse in the request's encoding, with a partial success naming
 * what was rejected. Errors are answered in the request's encoding too (google.rpc.Status for protobuf).
 */
function otlpExportRoute(signal: Signal) {
  return endpointRoute(
    signal === "traces" ? ingestApi.otlpTraces : ingestApi.otlpLogs,
    async ({ request, db, auth }) => {
      const contentType = request.headers.get("content-type");
      const encoding = encodingOf(contentType);
      if (encoding === null) {
        throw new DomainError(
          "unsupported_media_type",
          `expected Content-Type: application/x-protobuf or application/json, got ${contentType ? JSON.stringify(contentType) : "none"}`,
        );
      }
      const body = await readExportBody(request);
      let mapped;
      try {
        mapped = decodeAndMap(signal, encoding, body);
      } catch (error) {
        if (error instanceof OtlpDecodeError) throw new DomainError("invalid", error.message);
        if (error instanceof OtlpLimitError) throw new DomainError("too_large", error.message);
        throw error;
      }
      const result = await ingestOtlp(db, auth.projectId, mapped, { onStored: scheduleRebuildsOf(auth.projectId) });
      const partial = { rejected: result.rejected, errorMessage: result.errorMessage };
      if (encoding === "json") return json(200, exportResponseJson(signal, partial));
      return new Response(Buffer.from(exportResponseProto(partial)), { status: 200, headers: PROTOBUF_HEADERS });
    },
    { rawBody: true, errorAnswer: (error, request) => protobufErrorAnswer(error, encodingOf(request.headers.get("content-type"))) },
  );
}

const PROTOBUF_HEADERS = { "content-type": "application/x-protobuf", "cache-control": "no-store" };

/** The body, gunzipped when Content-Encoding says gzip; both sizes bounded by MAX_BATCH_BYTES. */
async function readExportBody(request: Request): Promise<Uint8Array> {
  const raw = await readBodyBytes(request, MAX_BATCH_BYTES);
  const contentEncoding = (request.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (contentEncoding === "identity" || contentEncoding === "") return raw;
  if (contentEncoding !== "gzip") {
    throw new DomainError(
      "unsupported_media_type",
      `Content-Encoding ${JSON.stringify(contentEncoding)} is not supported; send gzip or no encoding`,
    );
  }
  try {
    return await gunzipAsync(raw, { maxOutputLength: MAX_BATCH_BYTES });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      throw new DomainError(
        "too_large",
        `the gunzipped body is larger than the limit of ${MAX_BATCH_BYTES} bytes (${formatMb(MAX_BATCH_BYTES)}); export smaller batches`,
      );
    }
    throw new DomainError("invalid", `the body is not valid gzip: ${(error as Error).message}`);
  }
}

/** The app's error answer (lib/server/http/errors-to-response.ts) as a google.rpc.Status for a protobuf request; null (the usual JSON) otherwise. */
function protobufErrorAnswer(error: unknown, encoding: Encoding | null): Response | null {
  if (encoding !== "protobuf") return null;
  const answer = errorAnswer(error);
  const headers = { ...PROTOBUF_HEADERS, ...answer.headers };
  return new Response(Buffer.from(statusProto(answer.status, answer.error.message)), { status: answer.status, headers });
}
