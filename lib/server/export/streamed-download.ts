import { csvLine, type CsvCell } from "@/lib/reviewer/csv";
import { isTransientDatabaseError } from "@/lib/server/db/errors";
import { DomainError } from "@/lib/server/errors";

/** The first cell of the last CSV line of an export that stopped early: `#error,<code>,<message>` (3 cells). */
export const EXPORT_ERROR_MARK = "#error";

/** One keyset page of what is exported. */
export interface ExportPage<Row> {
  rows: readonly Row[];
  nextCursor: string | null;
}

export interface StreamedDownload<Row> {
  format: "csv" | "json";
  /** The first page, read before anything is sent (so a bad parameter or a database fault is an ordinary error answer). */
  first: ExportPage<Row>;
  /** The page after a cursor. */
  next: (cursor: string) => Promise<ExportPage<Row>>;
  csvColumns: readonly string[];
  csvCells: (row: Row) => CsvCell[];
  /** The download's name without its extension; a UTC timestamp and `.csv` / `.json` are added. */
  filename: string;
  /** What the log calls it ("reviewer export"). */
  label: string;
}

/**
 * A list as a streamed CSV or JSON download: pages are read and written one at a time (a page is
 * read only when the client has taken the previous one), so a large export never sits in memory
 * whole. A failure after the first bytes cannot change the status any more; it is logged and the
 * download ends cleanly with a marker no client can take for a complete file:
 * - CSV: a last line of three cells, `#error,<code>,<message>` (header and data lines have more);
 * - JSON: a last array element `{"error":{"code","message"}}` and no closing `]`, so parsing the
 *   whole download fails instead of yielding a partial list.
 */
export function streamedDownload<Row>(options: StreamedDownload<Row>): Response {
  const { format, first, next, label } = options;
  const encoder = new TextEncoder();
  let cursor = first.nextCursor;
  let written = 0;
  let cancelled = false;
  const render = (rows: readonly Row[]): string => {
    let chunk = "";
    for (const row of rows) {
      if (format === "csv") chunk += csvLine(options.csvCells(row));
      else chunk += `${written === 0 ? "" : ","}\n${JSON.stringify(row)}`;
      written++;
    }
    return chunk;
  };
  const ending = () => (format === "json" ? "\n]\n" : "");

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const head = format === "csv" ? csvLine([...options.csvColumns]) : "[";
      controller.enqueue(encoder.encode(head + render(first.rows) + (cursor === null ? ending() : "")));
      if (cursor === null) controller.close();
    },
    async pull(controller) {
      if (cursor === null || cancelled) return;
      let chunk: string;
      try {
        const page = await next(cursor);
        cursor = page.nextCursor;
        chunk = render(page.rows) + (cursor === null ? ending() : "");
      } catch (error) {
        cursor = null;
        if (cancelled) return; // nobody is reading any more (the database may be closing too)
        chunk = errorTrailer(error, format, written, label);
      }
      if (cancelled) return; // the client went away while the page was read
      controller.enqueue(encoder.encode(chunk));
      if (cursor === null) controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-");
  return new Response(stream, {
    status: 200,
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${options.filename}-${stamp}.${format}"`,
      "cache-control": "no-store",
    },
  });
}

/** The end of a download that failed after it started (logged here: the status was already sent). */
function errorTrailer(error: unknown, format: "csv" | "json", written: number, label: string): string {
  const code = error instanceof DomainError ? error.kind : isTransientDatabaseError(error) ? "unavailable" : "internal";
  const message =
    code === "unavailable"
      ? `the export stopped after ${written} rows: the database is busy or unreachable; download it again later`
      : code === "internal"
        ? `the export stopped after ${written} rows: unexpected server error; it has been logged`
        : `the export stopped after ${written} rows: ${(error as Error).message}`;
  console.error(`[cuescope] ${label} stopped after ${written} rows:`, error);
  if (format === "csv") return csvLine([EXPORT_ERROR_MARK, code, message]);
  return `${written === 0 ? "" : ","}\n${JSON.stringify({ error: { code, message } })}\n`;
}

/** How long a streamed document waits to be read on before it is closed (its reader is gone). */
export const DOCUMENT_IDLE_MS = 60_000;

/**
 * A JSON document in pieces: the next piece of its text as UTF-8 (each piece whole characters),
 * null after the last; `close` ends it either way. A piece is the reader's: it is sent as it is.
 */
export interface DocumentPieces {
  next(): Promise<Uint8Array | null>;
  close(): void;
}

/**
 * A JSON document that is already text (a run's stored decisions) as a streamed 200 answer: one
 * piece is read and sent per pull, when the client has taken the previous ones, so the document
 * never sits in memory whole and no tick handles more than a piece. `close` is called
 * once, after the last piece, on a failure, or when the client goes away. A failure after the first
 * bytes is logged and ends the answer with a marker no parser takes for a complete document: a
 * last `,{"error":{"code","message"}}` and no closing brackets (as a JSON export does).
 */
export function streamedDocument(
  document: DocumentPieces,
  options: { label: string; headers?: Record<string, string>; idleMs?: number },
): Response {
  const encoder = new TextEncoder();
  const idleMs = options.idleMs ?? DOCUMENT_IDLE_MS;
  let closed = false;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let lastSeen = 0;
  const close = () => {
    clearTimeout(idle);
    if (closed) return;
    closed = true;
    document.close();
  };
  // An answer nobody reads any more (its body dropped without being cancelled) is closed after a
  // while without a pull, so what it holds (a read permit) is not held for ever. One timer, armed
  // again only when it fires early (a pull came meanwhile): not two timers a piece (~400 for a
  // 64 MB download).
  const watch = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    lastSeen = Date.now();
    if (idle !== undefined) return;
    const arm = (delay: number) => {
      idle = setTimeout(() => {
        if (closed) return;
        const quiet = Date.now() - lastSeen;
        if (quiet < idleMs) return arm(idleMs - quiet);
        close();
        controller.error(new Error(`the ${options.label} was not read for ${idleMs} ms`));
      }, delay);
      idle.unref?.();
    };
    arm(idleMs);
  };
  // highWaterMark 0: nothing is read before the body is (scripts/server.mjs may write the document
  // itself, directDocumentOf, and never read this stream). The idle timer runs from the start: an
  // answer whose body is never read at all is closed too.
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        watch(controller);
      },
      async pull(controller) {
        if (closed) return;
        watch(controller);
        let piece: Uint8Array | null;
        try {
          piece = await document.next();
        } catch (error) {
          if (closed) return; // the client went away while the piece was read
          close();
          controller.enqueue(encoder.encode(documentTrailer(error, options.label)));
          controller.close();
          return;
        }
        if (closed) return;
        if (piece === null) {
          close();
          controller.close();
        } else {
          controller.enqueue(piece);
          watch(controller);
        }
      },
      cancel() {
        close();
      },
    },
    { highWaterMark: 0 },
  );
  const response = new Response(stream, {
    status: 200,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...options.headers },
  });
  const handOver = () => {
    // The direct writer owns the document from now on (and has its own idle close): this stream,
    // never read, lets it be.
    clearTimeout(idle);
    closed = true;
  };
  DIRECT.set(response, { document, label: options.label, idleMs, handOver });
  return response;
}

/**
 * A streamed document's answer, for a server that writes it to the socket itself instead of through
 * the Response's body (lib/server/http/direct.ts): the same pieces, with the same ending on a failure
 * (documentTrailer) and the same idle close. The caller then owns the document (closes it) and never
 * reads the body.
 */
export interface DirectDocument {
  document: DocumentPieces;
  label: string;
  idleMs: number;
}

const DIRECT = new WeakMap<Response, DirectDocument & { handOver: () => void }>();

/** The document behind a streamedDocument answer (once: it is handed over), or undefined for any other answer. */
export function directDocumentOf(response: Response): DirectDocument | undefined {
  const direct = DIRECT.get(response);
  if (!direct) return undefined;
  DIRECT.delete(response);
  direct.handOver();
  return { document: direct.document, label: direct.label, idleMs: direct.idleMs };
}

/** The end of a document that failed after it started (logged here: the status was already sent). */
export function documentTrailer(error: unknown, label: string): string {
  const code = error instanceof DomainError ? error.kind : isTransientDatabaseError(error) ? "unavailable" : "internal";
  const message =
    code === "unavailable"
      ? `the ${label} stopped: the database is busy or unreachable; download it again later`
      : code === "internal"
        ? `the ${label} stopped: unexpected server error; it has been logged`
        : `the ${label} stopped: ${(error as Error).message}`;
  console.error(`[cuescope] ${label} stopped:`, error);
  return `,${JSON.stringify({ error: { code, message } })}\n`;
}
