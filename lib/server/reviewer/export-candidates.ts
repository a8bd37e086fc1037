import type { TReviewerCandidateRow, TReviewerCandidatesQuery } from "@/lib/contracts";
import { csvLine, REVIEWER_CSV_COLUMNS, reviewerCsvCells } from "@/lib/reviewer/csv";
import type { Database } from "@/lib/server/db";
import { isTransientDatabaseError } from "@/lib/server/db/errors";
import { DomainError } from "@/lib/server/errors";
import { listReviewerCandidates } from "./list-candidates";

const PAGE = 200;

/** The first cell of the last CSV line of an export that stopped early: `#error,<code>,<message>` (3 cells). */
export const EXPORT_ERROR_MARK = "#error";

export interface ExportOptions {
  /** Rows read per database round (tests make it small to reach a second page). */
  pageSize?: number;
}

/**
 * The Reviewer audit as a streamed CSV or JSON download with the given filters: pages are read
 * and written one at a time, so a large export never sits in memory whole.
 *
 * The first page is read before anything is sent, so a bad parameter (a foreign cursor, say) or an
 * unreachable database is an ordinary JSON error answer (400, 503), never a cut-off download. A
 * failure after the first bytes cannot change the status any more; it is logged and the download
 * ends cleanly with a marker no client can take for a complete file:
 * - CSV: a last line of three cells, `#error,<code>,<message>` (header and data lines have 23);
 * - JSON: a last array element `{"error":{"code","message"}}` and no closing `]`, so parsing the
 *   whole download fails instead of yielding a partial list.
 */
export async function exportReviewerCandidates(
  db: Database,
  projectId: string,
  query: TReviewerCandidatesQuery,
  format: "csv" | "json",
  options: ExportOptions = {},
): Promise<Response> {
  const limit = options.pageSize ?? PAGE;
  const first = await listReviewerCandidates(db, projectId, { ...query, limit });

  const encoder = new TextEncoder();
  let cursor = first.nextCursor;
  let written = 0;
  let cancelled = false;
  const render = (rows: readonly TReviewerCandidateRow[]): string => {
    let chunk = "";
    for (const row of rows) {
      if (format === "csv") chunk += csvLine(reviewerCsvCells(row));
      else chunk += `${written === 0 ? "" : ","}\n${JSON.stringify(row)}`;
      written++;
    }
    return chunk;
  };
  const ending = () => (format === "json" ? "\n]\n" : "");

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const head = format === "csv" ? csvLine([...REVIEWER_CSV_COLUMNS]) : "[";
      controller.enqueue(encoder.encode(head + render(first.rows) + (cursor === null ? ending() : "")));
      if (cursor === null) controller.close();
    },
    async pull(controller) {
      if (cursor === null || cancelled) return;
      let chunk: string;
      try {
        const page = await listReviewerCandidates(db, projectId, { ...query, cursor, limit });
        cursor = page.nextCursor;
        chunk = render(page.rows) + (cursor === null ? ending() : "");
      } catch (error) {
        cursor = null;
        if (cancelled) return; // nobody is reading any more (the database may be closing too)
        chunk = errorTrailer(error, format, written);
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
      "content-disposition": `attachment; filename="reviewer-candidates-${stamp}.${format}"`,
      "cache-control": "no-store",
    },
  });
}

/** The end of a download that failed after it started (logged here: the status was already sent). */
function errorTrailer(error: unknown, format: "csv" | "json", written: number): string {
  const code = error instanceof DomainError ? error.kind : isTransientDatabaseError(error) ? "unavailable" : "internal";
  const message =
    code === "unavailable"
      ? `the export stopped after ${written} rows: the database is busy or unreachable; download it again later`
      : code === "internal"
        ? `the export stopped after ${written} rows: unexpected server error; it has been logged`
        : `the export stopped after ${written} rows: ${(error as Error).message}`;
  console.error(`[cuescope] reviewer export stopped after ${written} rows:`, error);
  if (format === "csv") return csvLine([EXPORT_ERROR_MARK, code, message]);
  return `${written === 0 ? "" : ","}\n${JSON.stringify({ error: { code, message } })}\n`;
}
