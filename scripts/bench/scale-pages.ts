/**
 * The scale bench's pages (issue 22 item 2): the run page of runs of several lengths, and the runs
 * list page, each served to 20 concurrent signed-in readers by the production server, on a scratch
 * database of their own: the HTML, and the HTML with the data it preloads (what the reader waits
 * for before the charts can draw).
 */
import { authenticate, createKey } from "@/lib/server/auth/keys";
import { createSession } from "@/lib/server/auth/sessions";
import { runPath } from "@/lib/queries/paths";
import { progressBar } from "@/scripts/lib/progress";
import type { BenchContext } from "./common";
import { createScratchDatabase, ingestRuns, settle } from "./scale-db";
import { etfRun } from "./scale-runs";
import { concurrentPageLoads, latencyOf, pageClient, withServer, type Spread } from "./scale-server";

export interface PageMeasurement {
  label: string;
  /** The run's turns (the runs list page: none). */
  turns?: number;
  /** Until the HTML has arrived. */
  latency: Spread;
  /** Until the HTML and the fetches it preloads (the run page's timeline) have arrived; null for a page that preloads none. */
  withData: Spread | null;
}

/**
 * GET /runs/<id> of a run of each of `turnsList` turns, the comparison page of the longest with another
 * run as long, then GET /runs, each by `readers` readers at once, `rounds` loads each (a load: the
 * HTML, then the fetches it preloads).
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
      // A warm-up round (untimed): every page by every reader once, so the first page timed is not
      // the one that pays for the server's first requests (its code compiled, its caches filled).
      ctx.progress(`warming up: every page, ${options.readers} readers ...`);
      for (const { path } of pages) await Promise.all(Array.from({ length: options.readers }, () => client.timePage(path)));
      const measured: PageMeasurement[] = [];
      for (const { label, turns, path } of pages) {
        ctx.progress(`${label}: ${options.readers} readers × ${options.rounds} requests ...`);
        const loads = await concurrentPageLoads(client, path, options.readers, options.rounds);
        measured.push({
          label,
          turns,
          latency: latencyOf(loads.pageMs),
          withData: loads.preloads > 0 ? latencyOf(loads.withDataMs) : null,
        });
      }
      return measured;
    });
  } finally {
    await database.remove();
  }
}
