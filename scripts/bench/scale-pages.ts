/**
 * The scale bench's pages (issue 22 item 2): the run page's HTML of runs of several lengths, and
 * the runs list page, each served to 20 concurrent signed-in readers by the production server, on
 * a scratch database of their own.
 */
import { authenticate, createKey } from "@/lib/server/auth/keys";
import { createSession } from "@/lib/server/auth/sessions";
import { runPath } from "@/lib/queries/paths";
import { progressBar } from "@/scripts/lib/progress";
import type { BenchContext } from "./common";
import { createScratchDatabase, ingestRuns, settle } from "./scale-db";
import { etfRun } from "./scale-runs";
import { concurrentReads, latencyOf, pageClient, withServer, type Spread } from "./scale-server";

export interface PageMeasurement {
  label: string;
  /** The run's turns (the runs list page: none). */
  turns?: number;
  latency: Spread;
}

/**
 * GET /runs/<id> of a run of each of `turnsList` turns, the comparison page of the longest with another
 * run as long, then GET /runs, each by `readers` readers at once, `rounds` requests each.
 */
export async function measurePages(
  ctx: BenchContext,
  turnsList: readonly number[],
  options: { readers: number; rounds: number },
): Promise<PageMeasurement[]> {
  const database = await createScratchDatabase();
  try {
    const runs = turnsList.map((turns, i) => etfRun(`page-${turns}`, 200 + i, turns));
    // The comparison page (docs/compare.md) of the longest run with another run as long (another seed).
    const longest = Math.max(...turnsList);
    const other = etfRun(`page-${longest}-b`, 300, longest);
    runs.push(other);
    let session: string;
    const db = await database.open();
    try {
      const key = await createKey(db, "pages", "bench scale pages");
      const caller = await authenticate(db, `Bearer ${key.secret}`);
      const total = runs.reduce((sum, r) => sum + r.events.length, 0);
      const bar = progressBar("loading the runs of the page reads");
      let sent = 0;
      await ingestRuns(db, caller.projectId, runs, (n) => bar.update((sent += n), total));
      bar.done();
      await settle(db);
      session = (await createSession(db, caller)).token;
    } finally {
      await db.close();
    }
    ctx.progress("starting the production server ...");
    return await withServer(database, async (base) => {
      const client = pageClient(base, session);
      const pages = [
        ...turnsList.map((turns, i) => ({
          label: `run page, ${turns.toLocaleString("en-US")} turns`,
          turns,
          path: runPath(runs[i].runId),
        })),
        {
          label: `comparison page, two ${longest.toLocaleString("en-US")}-turn runs`,
          turns: longest,
          path: `/compare?${new URLSearchParams({ a: `page-${longest}`, b: other.runId })}`,
        },
        { label: "runs list page", turns: undefined, path: "/runs" },
      ];
      const measured: PageMeasurement[] = [];
      for (const { label, turns, path } of pages) {
        ctx.progress(`${label}: ${options.readers} readers × ${options.rounds} requests ...`);
        measured.push({ label, turns, latency: latencyOf(await concurrentReads(client, path, options.readers, options.rounds)) });
      }
      return measured;
    });
  } finally {
    await database.remove();
  }
}
