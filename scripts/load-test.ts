/**
 * `npm run test:load [-- --profile ingest|mixed] [--duration 60] [--database-url URL] [--url URL --key KEY] [--port 3320]`
 *
 * A bounded loopback load against a Cuescope server, then a report, exit 1 when it failed.
 * Without --url it starts its own production server (`next build` must have run) on a fresh
 * database: an embedded one in a temp directory, or with `--database-url postgresql://…/db` a
 * scratch PostgreSQL database created on that server and dropped at the end. It only ever targets
 * this machine (127.0.0.1 / localhost / ::1). Throughout, it asks `/api/v1/health` every second and
 * keeps the server's worst event-loop lag (before the load it waits, up to 70 s, for the stall of
 * the server's own start to leave the lag's 60-s window).
 *
 * `--profile ingest` (the default; `--senders 6 --rate 2 --turns 8`): several senders at a fixed
 * rate each, sending overlapping batches of the same runs; then every run is read back. Reports
 * requests, status counts, 5xx, events acknowledged vs stored, p50/p95 latency and the worst lag;
 * fails when a 5xx other than 503 was answered, acknowledged ≠ stored, or the lag went over 500 ms.
 *
 * `--profile mixed` (issue 22; `--senders 10 --readers 20 --other-readers 5 --commenters 2
 * --replayers 1 --pause 1000`): first seeds two projects through the API (6 runs of 40 turns
 * each, policy versions for the replays) and makes every read once (a server loads a route's code
 * on its first request: a start-up stall, not the load's), then at once: the senders as above; readers cycling
 * through the runs list (every sort, filters), facets, trends, a run's summary, events, timeline
 * whole and zoomed, decisions download, comments, the Reviewer's candidates, funnel and exports,
 * and the runs, run, reviewer and trends pages (HTML, with a browser session made in the fresh
 * database) — `--other-readers` of them reading the second project, which nothing else loads
 * (cross-project isolation); comment writers posting as the browser does (session cookie +
 * same-origin Origin); replayers starting what-if replays and polling them to their end. Each
 * reader and writer pauses `--pause` ms between requests. Reports p50/p95/max and every status per
 * class (ingest, read, read-other, comment, replay, health) and per endpoint, the health checks'
 * own latency and the worst lag; fails on any 5xx other than a 503 with Retry-After (or no
 * answer), acknowledged ≠ stored, a health answer slower than 1 s, or lag over 500 ms. With --url
 * the second project is `--other-key`, and the pages are read only with `--session`
 * (`--other-session`): the value of a `cuescope_session` cookie.
 *
 * `--server-node-options="--cpu-prof --cpu-prof-dir=/tmp/prof"` passes flags to the node process of
 * its own server (to find what blocks its event loop).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { formatHealthWatch, healthPassed, MAX_EVENT_LOOP_LAG_MS, waitForQuietLoop, watchHealth } from "@/lib/client/health-watch";
import { assertLoopback, formatLoadReport, loadPassed, runLoad } from "@/lib/client/load";
import { runMixedLoad, seedProject, warmUp, type MixedProject } from "@/lib/client/load-mixed";
import { formatMixedReport, mixedFailures, type Sample } from "@/lib/client/load-mixed-report";
import { authenticateKey, createKey } from "@/lib/server/auth/keys";
import { createSession } from "@/lib/server/auth/sessions";
import { openDatabase, type Database } from "@/lib/server/db";
import { env } from "@/lib/server/env";
import { createScratchPostgres, type ScratchPostgres } from "@/lib/server/testing/databases";

const USAGE =
  "usage: npm run test:load -- [--profile ingest|mixed] [--duration SECONDS] [--senders N] [--rate BATCHES_PER_S] [--readers N] [--other-readers N] [--commenters N] [--replayers N] [--pause MS] [--database-url URL] [--url URL --key KEY [--other-key KEY] [--session TOKEN] [--other-session TOKEN]] [--port PORT] [--server-node-options FLAGS]";

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      profile: { type: "string", default: "ingest" },
      url: { type: "string" },
      key: { type: "string" },
      "other-key": { type: "string" },
      session: { type: "string" },
      "other-session": { type: "string" },
      "database-url": { type: "string" },
      port: { type: "string", default: "3320" },
      duration: { type: "string", default: "60" },
      senders: { type: "string" },
      rate: { type: "string", default: "2" },
      turns: { type: "string", default: "8" },
      readers: { type: "string", default: "20" },
      "other-readers": { type: "string", default: "5" },
      commenters: { type: "string", default: "2" },
      replayers: { type: "string", default: "1" },
      pause: { type: "string", default: "1000" },
      "server-node-options": { type: "string", default: "" },
    },
  });
  const mixed = values.profile === "mixed";
  const durationS = Number(values.duration);
  const senders = Number(values.senders ?? (mixed ? 10 : 6));
  const rate = Number(values.rate);
  const counts = ["readers", "other-readers", "commenters", "replayers", "pause"] as const;
  if (
    !(values.profile === "ingest" || mixed) ||
    !(durationS > 0 && senders >= 1 && rate > 0) ||
    counts.some((name) => !(Number.isInteger(Number(values[name])) && Number(values[name]) >= 0))
  ) {
    console.error(USAGE);
    return 2;
  }

  let url = values.url;
  let loaded: MixedProject = { key: values.key ?? env("CUESCOPE_API_KEY") ?? "", session: values.session };
  let other: MixedProject | undefined = values["other-key"] ? { key: values["other-key"], session: values["other-session"] } : undefined;
  let server: ChildProcess | undefined;
  let tempDir: string | undefined;
  let scratch: ScratchPostgres | undefined;
  try {
    if (url) {
      assertLoopback(url);
      if (!loaded.key) throw new Error("--url needs --key (or CUESCOPE_API_KEY)");
    } else {
      if (!existsSync(".next/BUILD_ID")) throw new Error("no production build: run `npm run build` first, or pass --url and --key");
      let serverEnv: Record<string, string | undefined>;
      let db: Database;
      if (values["database-url"]) {
        scratch = await createScratchPostgres(values["database-url"], "cuescope_load");
        db = await openDatabase({ url: scratch.url });
        serverEnv = { DATABASE_URL: scratch.url, CUESCOPE_DATA_DIR: undefined };
        console.error(`a scratch PostgreSQL database: ${new URL(scratch.url).pathname.slice(1)}`);
      } else {
        tempDir = mkdtempSync(join(tmpdir(), "cuescope-load-"));
        const dataDir = join(tempDir, "data");
        db = await openDatabase({ url: "", dataDir });
        serverEnv = { DATABASE_URL: "", CUESCOPE_DATA_DIR: dataDir };
        console.error(`an embedded database in ${dataDir}`);
      }
      try {
        loaded = await projectWithSession(db, "load-test", mixed);
        if (mixed) other = await projectWithSession(db, "load-test-other", true);
      } finally {
        await db.close();
      }
      url = `http://127.0.0.1:${values.port}`;
      console.error(`starting a production server on ${url} ...`);
      server = await startServer(url, Number(values.port), serverEnv, values["server-node-options"].split(" ").filter(Boolean));
    }

    if (mixed) {
      console.error("seeding two projects through the API (runs, policy versions) ...");
      const seededMain = await seedProject(url, loaded, "main", { versions: 4 });
      const seededOther = other ? await seedProject(url, other, "other", { versions: 0 }) : undefined;
      for (const project of [seededMain, seededOther]) {
        const failed = project ? await warmUp(url, project) : [];
        if (failed.length > 0) console.error(`warming up, these reads did not answer 2xx: ${failed.join(", ")}`);
      }
      const { readers, commenters, replayers, pause } = Object.fromEntries(counts.map((name) => [name, Number(values[name])])) as Record<
        (typeof counts)[number],
        number
      >;
      console.error(
        `mixed load for ${durationS} s: ${senders} senders × ${rate} batches/s, ${readers} readers (${other ? Math.min(readers, Number(values["other-readers"])) : 0} of another project), ${commenters} comment writers, ${replayers} replayers, ${pause} ms pauses`,
      );
      await quietLoop(url);
      const samples: Sample[] = [];
      const health = watchHealth(url, 1_000, (status, ms) => samples.push({ cls: "health", endpoint: "health", status, ms }));
      const result = await runMixedLoad({
        url,
        main: seededMain,
        other: seededOther,
        durationMs: durationS * 1000,
        senders,
        ratePerSender: rate,
        turnsPerRun: Number(values.turns),
        readers,
        otherReaders: Number(values["other-readers"]),
        commenters,
        replayers,
        pauseMs: pause,
        onProgress: (p) =>
          process.stderr.write(`\r${(p.elapsedMs / 1000).toFixed(0).padStart(4)} s  requests ${p.requests}  ${statusLine(p.statuses)}   `),
      });
      process.stderr.write("\n");
      const watched = await health.stop();
      const outcome = {
        samples: [...result.samples, ...samples],
        durationMs: result.durationMs,
        acknowledged: result.ingest.acknowledged,
        stored: result.ingest.stored,
        missing: result.ingest.missing.length,
        storedTwice: result.ingest.storedTwice.length,
        eventErrors: result.ingest.eventErrors,
        worstLagMs: watched.worstLagMs,
        replays: result.replays,
        notes: result.notes,
      };
      console.log(formatMixedReport(outcome));
      return mixedFailures(outcome).length === 0 ? 0 : 1;
    }

    console.error(`sending for ${durationS} s: ${senders} senders × ${rate} batches/s, overlapping batches of the same runs`);
    await quietLoop(url);
    const health = watchHealth(url);
    const report = await runLoad({
      url,
      key: loaded.key,
      durationMs: durationS * 1000,
      senders,
      ratePerSender: rate,
      turnsPerRun: Number(values.turns),
      onProgress: (p) => {
        process.stderr.write(
          `\r${(p.elapsedMs / 1000).toFixed(0).padStart(4)} s  requests ${p.requests}  ${statusLine(p.statuses)}  acknowledged ${p.acknowledged}   `,
        );
      },
    });
    process.stderr.write("\n");
    const watched = await health.stop();
    console.log(formatLoadReport(report));
    console.log(formatHealthWatch(watched));
    const passed = loadPassed(report);
    const lagPassed = healthPassed(watched);
    console.log(passed ? "PASS: no 5xx other than 503, every acknowledged event stored once" : "FAIL");
    console.log(
      lagPassed
        ? `PASS: event-loop lag ≤ ${MAX_EVENT_LOOP_LAG_MS} ms`
        : `FAIL: event-loop lag over ${MAX_EVENT_LOOP_LAG_MS} ms (or not reported)`,
    );
    return passed && lagPassed ? 0 : 1;
  } finally {
    if (server) {
      server.kill("SIGTERM");
      await new Promise((resolve) => server!.once("exit", resolve));
    }
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    if (scratch) await scratch.drop();
  }
}

/** A new project with its key, and (for the pages and comments) a browser session opened with that key. */
async function projectWithSession(db: Database, name: string, withSession: boolean): Promise<MixedProject> {
  const { secret } = await createKey(db, name, `${name} key`);
  if (!withSession) return { key: secret };
  const session = await createSession(db, await authenticateKey(db, secret));
  return { key: secret, session: session.token };
}

/** Waits for the stall of the server's start to leave the lag window (so the load measures only its own). */
async function quietLoop(url: string): Promise<void> {
  const before = await waitForQuietLoop(url);
  if (before !== null && before > MAX_EVENT_LOOP_LAG_MS)
    console.error(`the server's event loop still reports a ${before} ms stall before the load`);
}

function statusLine(statuses: Record<string, number>): string {
  return Object.entries(statuses)
    .map(([s, n]) => `${s}×${n}`)
    .join(" ");
}

async function startServer(
  url: string,
  port: number,
  databaseEnv: Record<string, string | undefined>,
  nodeOptions: string[],
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [...nodeOptions, "node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", String(port)],
    {
      env: { ...process.env, ...databaseEnv, NEXT_TELEMETRY_DISABLED: "1", CUESCOPE_SERVER_URL: url },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/api/v1/health`);
      if (response.ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  child.kill("SIGTERM");
  throw new Error(`the server did not answer ${url}/api/v1/health within 120 s`);
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`test:load: ${(error as Error).message}`);
    process.exit(2);
  },
);
