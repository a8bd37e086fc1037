import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZRunListResponse, type TRunListItem } from "@/lib/contracts";
import { RUNS_CSV_COLUMNS } from "@/lib/run-list/csv";
import { createKey } from "@/lib/server/auth/keys";
import { useDatabase, type Database } from "@/lib/server/db";
import { EXPORT_ERROR_MARK } from "@/lib/server/export/streamed-download";
import { exportRunsRoute } from "@/lib/server/http/routes";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { testDatabases } from "@/lib/server/testing/databases";
import { smallRun, startedEvent } from "@/lib/server/testing/events";
import { exportRuns } from "./export-runs";
import { routeOf } from "@/lib/server/http/api";
import { runsApi } from "@/lib/endpoints";

const listRunsRoute = routeOf(runsApi.list);

/** Tasks a CSV writer must quote, and ones a spreadsheet would run as formulas. */
const TASKS = [
  "Compare fees, then holdings",
  'Say "hello" to the fund',
  "Two\nlines\r\nof task",
  '=HYPERLINK("http://evil.test","click")',
  "+1 fund",
  "-2 funds",
  "@SUM(A1:A9)",
  "plain task",
];

describe.each(testDatabases())("runs export on $name", (kind) => {
  let db: Database;
  let key: string;
  let projectId: string;

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    key = (await createKey(db, "runs-export")).secret;
    projectId = (await db.prisma.project.findUniqueOrThrow({ where: { name: "runs-export" } })).id;
    const events = TASKS.map((task, i) => ({
      ...startedEvent(`export-${i}`, `export-${i}-start`, { task }),
      ts: new Date(Date.UTC(2026, 10, 1 + i, 9)).toISOString(),
    }));
    expect((await ingestBatch(db, projectId, [...events, ...smallRun("export-whole", 12)])).summary.error).toBe(0);
    await settleRebuilds(db, { projectId });
    const other = (await createKey(db, "runs-export-other")).secret;
    expect(other).not.toBe(key);
  }, 120_000);
  afterAll(async () => db?.close());

  const get = (path: string) => new Request(`http://cuescope.test${path}`, { headers: { authorization: `Bearer ${key}` } });

  async function listed(query: string): Promise<TRunListItem[]> {
    const response = await listRunsRoute(get(`/api/v1/runs?limit=200&${query}`));
    return ZRunListResponse.parse(await response.json()).runs;
  }

  it("streams every run of the filter in the list's sort over several pages, JSON and CSV alike", async () => {
    const all = await listed("sort=-findings");
    expect(all).toHaveLength(TASKS.length + 1);
    const json = await exportRuns(db, projectId, { sort: "-findings" }, "json", { pageSize: 2 });
    expect(JSON.parse(await json.text())).toEqual(all);

    const csv = await (await exportRuns(db, projectId, { sort: "-findings" }, "csv", { pageSize: 3 })).text();
    expect(csv.endsWith("\r\n")).toBe(true);
    expect(csv.startsWith(`${RUNS_CSV_COLUMNS.join(",")}\r\n`)).toBe(true);
    expect(csv).toContain(",dropped (reminders),");
    expect(csv).not.toContain(EXPORT_ERROR_MARK);
    // The run ids, first cell of each record, in the list's order.
    const ids = [...csv.matchAll(/\r\n(export-[\w-]+),/g)].map((m) => m[1]);
    expect(ids).toEqual(all.map((r) => r.runId));
  });

  it("quotes commas, quotes and line breaks, and defuses formulas, in a CSV a parser reads back", async () => {
    const response = await exportRunsRoute(get("/api/v1/runs/export?format=csv&q=export-&sort=started"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="runs-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}\.csv"$/);
    const records = parseCsv(await response.text());
    expect(records[0]).toEqual([...RUNS_CSV_COLUMNS]);
    const tasks = records.slice(1).map((cells) => cells[1]);
    expect(tasks).toEqual([
      "Compare fees, then holdings",
      'Say "hello" to the fund',
      "Two\nlines\r\nof task",
      `'=HYPERLINK("http://evil.test","click")`,
      "'+1 fund",
      "'-2 funds",
      "'@SUM(A1:A9)",
      "plain task",
      expect.stringContaining("export-whole"),
    ]);
    expect(records.every((cells) => cells.length === RUNS_CSV_COLUMNS.length)).toBe(true);
  });

  it("exports the filter only, from the first run whatever cursor or limit the query has", async () => {
    const first = await listed("sort=started&limit=1");
    const cursor = (await (await listRunsRoute(get("/api/v1/runs?sort=started&limit=1"))).json()).nextCursor as string;
    const response = await exportRunsRoute(get(`/api/v1/runs/export?format=json&sort=started&limit=1&cursor=${cursor}&q=export-`));
    const runs = JSON.parse(await response.text()) as TRunListItem[];
    expect(runs).toHaveLength(TASKS.length + 1);
    expect(runs[0].runId).toBe(first[0].runId);
    const one = await exportRunsRoute(get("/api/v1/runs/export?format=json&q=hello"));
    expect((JSON.parse(await one.text()) as TRunListItem[]).map((r) => r.runId)).toEqual(["export-1"]);
  });

  it("answers 400 as JSON before any download for a bad format or filter, and 401 without a key", async () => {
    for (const [query, path] of [
      ["format=xml", "format"],
      ["format=csv&sort=best", "sort"],
      ["format=csv&finding=NOPE", "finding"],
      ["format=json&hasDrops=maybe", "hasDrops"],
    ]) {
      const response = await exportRunsRoute(get(`/api/v1/runs/export?${query}`));
      expect(response.status).toBe(400);
      expect((await response.json()).error).toMatchObject({ path });
    }
    expect((await exportRunsRoute(new Request("http://cuescope.test/api/v1/runs/export"))).status).toBe(401);
  });
});

/** RFC 4180 records (quoted cells may hold commas, quotes and line breaks); lines end with CRLF. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') {
      quoted = false;
    } else if (quoted) {
      cell += c;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ",") {
      cells.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      cells.push(cell);
      records.push(cells);
      cells = [];
      cell = "";
      i++;
    } else {
      cell += c;
    }
  }
  return records;
}
