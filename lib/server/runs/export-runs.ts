import type { TRunListQuery } from "@/lib/contracts";
import { RUNS_CSV_COLUMNS, runCsvCells } from "@/lib/run-list/csv";
import type { Database } from "@/lib/server/db";
import { streamedDownload } from "@/lib/server/export/streamed-download";
import { listRuns } from "./list-runs";

const PAGE = 200;

/**
 * The runs list with its filters and sort as a streamed CSV or JSON download (`GET
 * /api/v1/runs/export`): keyset pages of `pageSize` runs read one at a time as the client takes them,
 * so memory stays flat however many runs match. The first page is read before the answer starts: a
 * bad parameter or a database fault is a JSON 400 or 503. The query's own cursor and limit are
 * ignored: an export starts at the first run and goes to the last.
 */
export async function exportRuns(
  db: Database,
  projectId: string,
  query: Omit<TRunListQuery, "cursor" | "limit">,
  format: "csv" | "json",
  options: { pageSize?: number } = {},
): Promise<Response> {
  const limit = options.pageSize ?? PAGE;
  const base = { ...query, cursor: undefined, limit };
  const first = await listRuns(db, projectId, base);
  return streamedDownload({
    format,
    first: { rows: first.runs, nextCursor: first.nextCursor },
    next: async (cursor) => {
      const page = await listRuns(db, projectId, { ...base, cursor });
      return { rows: page.runs, nextCursor: page.nextCursor };
    },
    csvColumns: RUNS_CSV_COLUMNS,
    csvCells: runCsvCells,
    filename: "runs",
    label: "runs export",
  });
}
