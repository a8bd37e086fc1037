import type { TReviewerCandidatesQuery } from "../../contracts";
import { csvLine, REVIEWER_CSV_COLUMNS, reviewerCsvCells } from "../../audit/reviewer-csv";
import type { Database } from "../db";
import { listReviewerCandidates } from "./list-candidates";

const PAGE = 200;

/**
 * The Reviewer audit as a streamed CSV or JSON download with the given filters: pages are read
 * and written one at a time, so a large export never sits in memory whole.
 */
export function exportReviewerCandidates(db: Database, projectId: string, query: TReviewerCandidatesQuery, format: "csv" | "json"): Response {
  const encoder = new TextEncoder();
  let cursor: string | undefined = query.cursor;
  let first = true;
  let done = false;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode(format === "csv" ? csvLine([...REVIEWER_CSV_COLUMNS]) : "["));
    },
    async pull(controller) {
      if (done) return;
      try {
        const page = await listReviewerCandidates(db, projectId, { ...query, cursor, limit: PAGE });
        let chunk = "";
        for (const row of page.rows) {
          if (format === "csv") chunk += csvLine(reviewerCsvCells(row));
          else {
            chunk += `${first ? "" : ","}\n${JSON.stringify(row)}`;
            first = false;
          }
        }
        if (page.nextCursor === null) {
          done = true;
          if (format === "json") chunk += "\n]\n";
        }
        if (chunk) controller.enqueue(encoder.encode(chunk));
        if (done) controller.close();
        cursor = page.nextCursor ?? undefined;
      } catch (error) {
        controller.error(error);
      }
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
