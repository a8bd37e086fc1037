import type { TReviewerCandidatesQuery } from "@/lib/contracts";
import { REVIEWER_CSV_COLUMNS, reviewerCsvCells } from "@/lib/reviewer/csv";
import type { Viewer } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { streamedDownload } from "@/lib/server/export/streamed-download";
import { listReviewerCandidates } from "./list-candidates";

export { EXPORT_ERROR_MARK } from "@/lib/server/export/streamed-download";

const PAGE = 200;

export interface ExportOptions {
  /** Rows read per database round (tests make it small to reach a second page). */
  pageSize?: number;
}

/**
 * The Reviewer audit as a streamed CSV or JSON download with the given filters (streamedDownload:
 * a page at a time; an error after the first bytes ends it with a marker). The first page is read
 * before anything is sent, so a bad parameter (a foreign cursor, say) or an unreachable database is
 * an ordinary JSON error answer (400, 503), never a cut-off download.
 */
export async function exportReviewerCandidates(
  db: Database,
  projectId: string,
  query: Omit<TReviewerCandidatesQuery, "limit">,
  format: "csv" | "json",
  options: ExportOptions & { viewer?: Viewer } = {},
): Promise<Response> {
  const limit = options.pageSize ?? PAGE;
  const viewer = options.viewer ?? {};
  const first = await listReviewerCandidates(db, projectId, { ...query, limit }, viewer);
  return streamedDownload({
    format,
    first,
    next: (cursor) => listReviewerCandidates(db, projectId, { ...query, cursor, limit }, viewer),
    csvColumns: REVIEWER_CSV_COLUMNS,
    csvCells: reviewerCsvCells,
    filename: "reviewer-candidates",
    label: "reviewer export",
  });
}
