/**
 * The scale bench's whole-run reads (issue 22 item 2), on a scratch database of their own served by
 * the production server: for long runs, side by side, (a) reading the run's stored chunk texts from
 * the database as plain rows, the floor any download stands on, and (b) GET …/decisions over HTTP,
 * with the server's RSS growth while it streams; the zoomed timeline (a 500-turn window, a new
 * window each request so no cache answers); and six concurrent downloads of the longest run while
 * `/api/v1/health` is polled, with every status they got.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { get } from "node:http";
import { Client } from "pg";
import { apiRunPath } from "@/lib/queries/paths";
import { authenticate, createKey } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { progressBar } from "@/scripts/lib/progress";
import { median, percentile, type BenchContext } from "./common";
import { createScratchDatabase, ingestRuns, settle, type RunEvents, type ScratchDatabase } from "./scale-db";
import { etfRun } from "./scale-runs";
import { withServer } from "./scale-server";

export interface DecisionsRun {
  turns: number;
  /** The rebuilt turns (a skipped turn has none). */
  turnCount: number;
  events: number;
  chunks: number;
  /** The stored chunk texts' bytes (UTF-8), and the download's. */
  chunkBytes: number;
  downloadBytes: number;
  /**
   * Medians: (a) the chunk rows read from the database; (b) the download over HTTP, whole body, as
   * its bytes (`accept-encoding: identity`), taken with node:http; (c) the same taken with fetch;
   * (d) the same gzip-compressed (what a client that asks for it, as fetch does by default, gets;
   * decompressed by the client, so the same bytes), taken with fetch.
   */
  rowsMs: number;
  /**
   * (a′) PostgreSQL only (NaN on PGlite, whose one process is the server then): the same rows read
   * by the same kind of client while the server runs, once before each round of the three downloads,
   * so that (a′) and (b) share whatever else the machine is doing at the time (a) does not.
   */
  rowsBetweenMs: number;
  downloadMs: number;
  fetchMs: number;
  gzipMs: number;
  /** The server's largest RSS while the run was downloaded, minus its RSS just before. */
  rssGrowthBytes: number;
  /** GET …/timeline?from&to of 500 turns, each request another window. */
  zoom: { p50: number; p95: number; count: number };
}

export interface DecisionsMeasurement {
  runs: DecisionsRun[];
  /**
   * Six downloads of the longest run at once (gzip, as fetch asks by default), with /api/v1/health
   * polled meanwhile by another process (healthPoller), and the server's own worst event-loop lag
   * that /health reported meanwhile.
   */
  concurrent: {
    downloads: number;
    statuses: Map<number, number>;
    wallMs: number;
    health: { p50: number; p95: number; max: number; count: number };
    worstLagMs: number;
  };
}

const ZOOM_TURNS = 500;
const CONCURRENT = 6;

export async function measureDecisions(
  ctx: BenchContext,
  turnsList: readonly number[],
  options: { repeats: number; requests: number },
): Promise<DecisionsMeasurement> {
  const database = await createScratchDatabase();
  // (a′)'s client (PostgreSQL only), open while the server runs.
  let rowsClient: Client | null = null;
  try {
    // The runs' events are generated, sent and let go: this process is the downloads' client, and
    // half a million events kept alive would make its every garbage collection (a download's body
    // is 6-64 MB) that much longer, timed as the download's.
    let generated: RunEvents[] | null = [
      etfRun("warm-up", 1, 50),
      ...turnsList.map((turns, i) => etfRun(`decisions-${turns}`, 100 + i, turns)),
    ];
    const [warmUp, ...runs] = generated.map((r) => ({ runId: r.runId, events: r.events.length }));
    let key: string;
    const rows: { rowsMs: number; chunkBytes: number; chunks: number; turnCount: number }[] = [];
    let projectId = "";
    const runPks: string[] = [];
    const db = await database.open();
    try {
      key = (await createKey(db, "decisions", "bench scale decisions")).secret;
      ({ projectId } = await authenticate(db, `Bearer ${key}`));
      const total = [warmUp, ...runs].reduce((sum, r) => sum + r.events, 0);
      const bar = progressBar("loading the long runs");
      let sent = 0;
      await ingestRuns(db, projectId, generated, (n) => bar.update((sent += n), total));
      generated = null;
      bar.done();
      await settle(db);
      for (const run of runs) {
        ctx.progress(`reading the chunk rows of ${run.runId} from the database ...`);
        const { id } = await db.prisma.run.findUniqueOrThrow({
          where: { projectId_runId: { projectId, runId: run.runId } },
          select: { id: true },
        });
        runPks.push(id);
        rows.push(await readChunkRows(database, db, projectId, id, options.repeats));
      }
    } finally {
      await db.close();
    }

    ctx.progress("starting the production server ...");
    rowsClient = database.url ? new Client({ connectionString: database.url }) : null;
    await rowsClient?.connect();
    return await withServer(database, async (base, server) => {
      const headers = { authorization: `Bearer ${key}` };
      // A download that fails on the way (the connection closed) is status 0, its error logged.
      // `http`: node:http, the body's pieces collected and joined (what curl or a browser does
      // natively); `fetch`: its arrayBuffer(), which costs this process ~1.6× node:http's CPU.
      const download = async (runId: string, encoding: "identity" | "gzip", client: "http" | "fetch" = "fetch") => {
        const started = process.hrtime.bigint();
        const url = `${base}${apiRunPath(runId, "/decisions")}`;
        try {
          const { status, body } =
            client === "http"
              ? await httpGet(url, { ...headers, "accept-encoding": encoding })
              : await fetch(url, { headers: { ...headers, "accept-encoding": encoding } }).then(async (response) => ({
                  status: response.status,
                  body: Buffer.from(await response.arrayBuffer()),
                }));
          return { status, bytes: body.byteLength, ms: Number(process.hrtime.bigint() - started) / 1e6, body };
        } catch (error) {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          ctx.print(
            `download of ${runId} failed after ${ms.toFixed(0)} ms: ${(error as Error).message} (${String((error as Error).cause)})`,
          );
          return { status: 0, bytes: 0, ms, body: Buffer.alloc(0) };
        }
      };
      const timed = async (path: string) => {
        const started = process.hrtime.bigint();
        const response = await fetch(`${base}${path}`, { headers });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
        return Number(process.hrtime.bigint() - started) / 1e6;
      };
      // The routes' code, loaded once.
      await download(warmUp.runId, "identity", "http");
      await download(warmUp.runId, "identity");
      await download(warmUp.runId, "gzip");
      await timed(apiRunPath(warmUp.runId, "/timeline?from=0&to=20"));

      const measured: DecisionsRun[] = [];
      for (const [i, run] of runs.entries()) {
        const turns = turnsList[i];
        ctx.progress(`downloading ${run.runId} (${options.repeats} times) ...`);
        const first = await download(run.runId, "identity");
        if (first.status !== 200) throw new Error(`GET decisions of ${run.runId} answered ${first.status}`);
        const parsed = JSON.parse(first.body.toString()) as { runId: string; turns: unknown[] };
        if (parsed.runId !== run.runId || parsed.turns.length !== rows[i].turnCount)
          throw new Error(`the download of ${run.runId} has ${parsed.turns.length} turns, its chunks ${rows[i].turnCount}`);
        const before = rssBytes(server.pid);
        let peak = before;
        const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(server.pid))), 5);
        // The three ways in turn, so that they share whatever else the machine is doing.
        const times: number[] = [];
        const fetchTimes: number[] = [];
        const gzipTimes: number[] = [];
        const rowsBetween: number[] = [];
        try {
          for (let r = 0; r < options.repeats; r++) {
            if (rowsClient) {
              const started = process.hrtime.bigint();
              await rowsClient.query(CHUNK_ROWS_SQL, [projectId, runPks[i]]);
              rowsBetween.push(Number(process.hrtime.bigint() - started) / 1e6);
            }
            for (const [encoding, client, into] of [
              ["identity", "http", times],
              ["identity", "fetch", fetchTimes],
              ["gzip", "fetch", gzipTimes],
            ] as const) {
              const timedDownload = await download(run.runId, encoding, client);
              if (timedDownload.status === 200 && timedDownload.bytes === first.bytes) into.push(timedDownload.ms);
            }
          }
        } finally {
          clearInterval(sampler);
        }
        ctx.progress(`zoomed timeline of ${run.runId}: ${options.requests} windows of ${ZOOM_TURNS} turns ...`);
        const span = Math.max(1, turns - ZOOM_TURNS);
        const zoomPath = (k: number) => {
          const from = (k * 7919) % span; // another window each time: no cached timeline answers
          return apiRunPath(run.runId, `/timeline?from=${from}&to=${from + ZOOM_TURNS - 1}`);
        };
        await timed(zoomPath(0));
        const zooms: number[] = [];
        for (let k = 1; k <= options.requests; k++) zooms.push(await timed(zoomPath(k)));
        measured.push({
          turns,
          events: run.events,
          ...rows[i],
          downloadBytes: first.bytes,
          rowsBetweenMs: rowsBetween.length ? median(rowsBetween) : NaN,
          downloadMs: times.length ? median(times) : NaN,
          fetchMs: fetchTimes.length ? median(fetchTimes) : NaN,
          gzipMs: gzipTimes.length ? median(gzipTimes) : NaN,
          rssGrowthBytes: peak - before,
          zoom: { p50: percentile(zooms, 50), p95: percentile(zooms, 95), count: zooms.length },
        });
      }

      ctx.progress(`${CONCURRENT} concurrent downloads of the longest run, /api/v1/health polled meanwhile ...`);
      const longest = runs.at(-1)!.runId;
      const poller = await healthPoller(base);
      const started = process.hrtime.bigint();
      const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => download(longest, "gzip")));
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      const { health, worstLagMs } = await poller.stop();
      if (health.length === 0) throw new Error("the /health poller measured nothing");
      const statuses = new Map<number, number>();
      for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      return {
        runs: measured,
        concurrent: {
          downloads: CONCURRENT,
          statuses,
          wallMs,
          health: { p50: percentile(health, 50), p95: percentile(health, 95), max: Math.max(...health), count: health.length },
          worstLagMs,
        },
      };
    });
  } finally {
    await rowsClient?.end();
    await database.remove();
  }
}

const CHUNK_ROWS_SQL = `SELECT "turns", "turn_count" AS "turnCount" FROM "run_decision_chunks" WHERE "project_id" = $1 AND "run_pk" = $2 ORDER BY "chunk"`;

/**
 * (a): the run's chunk texts as plain rows, in chunk order, straight from the database — with a
 * plain node-postgres client on PostgreSQL, through the embedded database in this process on PGlite
 * (the server is not running yet: one process at a time). Median of `repeats`.
 */
async function readChunkRows(
  database: ScratchDatabase,
  db: Database,
  projectId: string,
  runPk: string,
  repeats: number,
): Promise<{ rowsMs: number; chunkBytes: number; chunks: number; turnCount: number }> {
  const sql = CHUNK_ROWS_SQL;
  const client = database.url ? new Client({ connectionString: database.url }) : null;
  await client?.connect();
  try {
    type Row = { turns: string; turnCount: number };
    const read = async (): Promise<Row[]> =>
      client ? (await client.query<Row>(sql, [projectId, runPk])).rows : db.prisma.$queryRawUnsafe<Row[]>(sql, projectId, runPk);
    const first = await read();
    const times: number[] = [];
    for (let r = 0; r < repeats; r++) {
      const started = process.hrtime.bigint();
      await read();
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    return {
      rowsMs: median(times),
      chunkBytes: first.reduce((sum, row) => sum + Buffer.byteLength(row.turns), 0),
      chunks: first.length,
      turnCount: first.reduce((sum, row) => sum + Number(row.turnCount), 0),
    };
  } finally {
    await client?.end();
  }
}

/**
 * GET /api/v1/health in a loop from a process of its own, one request at a time, until `stop`:
 * each request's milliseconds, and the worst event-loop lag the server reported meanwhile. Its own
 * process so that what is measured is the server's answer, not this process's event loop, which is
 * busy taking the downloads' bodies (polled from here, /health waited behind them: several times longer).
 */
async function healthPoller(base: string): Promise<{ stop(): Promise<{ health: number[]; worstLagMs: number }> }> {
  const script = `
    let running = true;
    process.stdin.on("data", () => (running = false));
    const health = [];
    let worstLagMs = 0;
    process.stdout.write("started\\n");
    while (running) {
      const started = performance.now();
      const response = await fetch(process.argv[1] + "/api/v1/health");
      const body = await response.json();
      health.push(performance.now() - started);
      worstLagMs = Math.max(worstLagMs, body.eventLoop?.worstLagMs ?? 0);
    }
    process.stdout.write(JSON.stringify({ health, worstLagMs }) + "\\n");
    process.exit(0);`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script, base], { stdio: ["pipe", "pipe", "inherit"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  while (!output.startsWith("started\n")) {
    if (child.exitCode !== null) throw new Error(`the /health poller exited (${child.exitCode})`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return {
    async stop() {
      child.stdin.end("stop\n");
      const code = await exited;
      if (code !== 0) throw new Error(`the /health poller exited (${code})`);
      return JSON.parse(output.slice("started\n".length)) as { health: number[]; worstLagMs: number };
    },
  };
}

/** GET with node:http: the status and the whole body (its pieces joined once, at the end). */
function httpGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const pieces: Buffer[] = [];
      let length = 0;
      response.on("data", (piece: Buffer) => {
        pieces.push(piece);
        length += piece.length;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(pieces, length) }));
      response.on("error", reject);
    }).on("error", reject);
  });
}

/** A process's resident set size (VmRSS) in bytes, from /proc (Linux). */
function rssBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) * 1024 : 0;
}
