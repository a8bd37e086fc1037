/**
 * Bench section "scale": whether reads stay flat as data grows, by measurement. Parts, each
 * selectable as `--only scale-<part>` (`--only scale` runs them all):
 *
 * - reads:   each read path's p50/p95 over HTTP at a small and a large data set, and their ratio; beside
 *            them every alert rule's evaluation (the queue's job, in this process)
 * - ingest:  loading those data sets through ingestBatch vs raw INSERTs of the same rows
 * - replay:  another project's runs list while a what-if replay of the large data set runs
 * - live:    a 20,000-turn run sent in batches of 10 turns, polled as the run page does
 * - longrun: the first chart request (whole-run timeline) of a 50,000-turn vs a 5,000-turn run, cold
 * - decisions: GET …/decisions of 5,000-, 20,000- and 50,000-turn runs vs reading their chunk rows from the
 *            database, the server's RSS growth, the zoomed 500-turn timeline, 6 concurrent downloads
 * - pages:   the run page of 1,000-, 5,000- and 50,000-turn runs, and the runs list page, each served to
 *            20 concurrent signed-in readers
 *
 * /api/v1/health is polled throughout the replay and the live run. Each of issue 22's targets is
 * printed on a line of its own ending in PASS or MISS (`targetLine`).
 *
 * Everything runs on scratch databases (PostgreSQL with DATABASE_URL, else PGlite) through the
 * production server (`next build` output). Tables are markdown, to paste into the README.
 */
import { countLabel, defaultSizes } from "./scale-options";
import { fmt, markdownTable, median, targetLine, verdict, type BenchContext, type BenchSection } from "./common";
import { scaleDatabaseKind, type DatabaseKind } from "./scale-db";
import { ALERT_LIST_PATH, measureDataset, READ_PATHS, type DatasetMeasurement, type DatasetParts } from "./scale-dataset";
import { ALERT_NOW } from "./scale-data";
import type { Latency, Spread } from "./scale-server";
import { measureLiveRun, measureLongRun } from "./scale-runs";
import { measureDecisions } from "./scale-decisions";
import { measurePages } from "./scale-pages";
import { hasProductionBuild } from "./scale-server";

export const SCALE_PARTS = ["reads", "ingest", "replay", "live", "longrun", "decisions", "pages"] as const;
export type ScalePart = (typeof SCALE_PARTS)[number];

export interface ScaleOptions {
  /** Small and large data sets, in events (default: by database, see defaultSizes). */
  sizes?: [number, number];
  /** Timed requests per read path and size (after one untimed first request). */
  requests?: number;
}

const READ_P95_TARGET = 100;
const READ_RATIO_TARGET = 1.5;
/** Another project's runs list during a replay (item 2: p95 ≤ 100 ms), and the replay's own pace. */
const REPLAY_P95_TARGET = 100;
const REPLAY_TURNS_PER_S_TARGET = 10_000;
const LIVE_END_TARGET = 300;
const LONG_RATIO_TARGET = 2;
const INGEST_RATIO_TARGET = 0.5;
const DECISIONS_RATIO_TARGET = 2;
const DECISIONS_RSS_TARGET_MB = 100;
const ZOOM_P95_TARGET = 100;
const HEALTH_P95_TARGET = 200;
const PAGE_P95_TARGET = 1_000;
const COMPARE_PAGE_RATIO_TARGET = 2;
/** The runs of the pages part, in turns, and its readers. */
const PAGE_TURNS = [1_000, 5_000, 50_000];
const PAGE_READERS = 20;
/** The runs of the decisions part, in turns (issue 22's targets are for the 50,000-turn run's). */
const DECISIONS_TURNS = [5_000, 20_000, 50_000];

export function scaleSection(options: ScaleOptions = {}): BenchSection {
  const kind = scaleDatabaseKind();
  const [small, large] = options.sizes ?? defaultSizes(kind);
  return {
    name: "scale",
    parts: SCALE_PARTS,
    description: `read paths at ${countLabel(small)} and ${countLabel(large)} events, ingest vs raw INSERT, replay isolation, a live run, a long run — ${kind === "postgres" ? "PostgreSQL" : "embedded PGlite"}, HTTP against the production server`,
    run: (ctx, parts) => run(ctx, kind, [small, large], options.requests ?? 20, new Set((parts ?? SCALE_PARTS) as ScalePart[])),
  };
}

async function run(
  ctx: BenchContext,
  kind: DatabaseKind,
  [small, large]: [number, number],
  requests: number,
  parts: Set<ScalePart>,
): Promise<void> {
  if (!hasProductionBuild()) return ctx.print("skipped: no production build (run `npm run build` first)");
  const db = kind === "postgres" ? "PostgreSQL" : "PGlite";
  ctx.print(
    `database: ${db} (scratch databases); sizes ${countLabel(small)} and ${countLabel(large)} events; ${requests} timed requests per read`,
  );
  const dataset: DatasetParts = { reads: parts.has("reads"), ingest: parts.has("ingest"), replay: parts.has("replay") };
  const measured: DatasetMeasurement[] = [];
  for (const size of [small, large]) {
    const needed = size === large ? dataset.reads || dataset.ingest || dataset.replay : dataset.reads || dataset.ingest;
    if (needed) measured.push(await measureDataset(ctx, kind, size, dataset, { requests, withReplay: size === large }));
  }
  if (dataset.reads) reportReads(ctx, db, measured, requests);
  if (dataset.ingest) reportIngest(ctx, db, measured);
  if (dataset.replay) reportReplay(ctx, db, measured.at(-1)!);
  if (parts.has("live")) await live(ctx, db);
  if (parts.has("longrun")) await longRun(ctx, db);
  if (parts.has("decisions")) await decisions(ctx, db, requests);
  if (parts.has("pages")) await pages(ctx, db);
}

function reportReads(ctx: BenchContext, db: string, [a, b]: DatasetMeasurement[], requests: number): void {
  ctx.print();
  ctx.print(
    `Reads over HTTP against the production server (${db}), ${requests} sequential requests after one untimed; ` +
      `${countLabel(a.load.events)} events (${a.load.runs} runs) vs ${countLabel(b.load.events)} events (${b.load.runs} runs):`,
  );
  ctx.print();
  const row = (label: string, [s, l]: [Latency, Latency], targeted: boolean) => {
    const ratio = l.p50 / s.p50;
    return [
      label,
      fmt.ms(s.p50),
      fmt.ms(s.p95),
      fmt.ms(l.p50),
      fmt.ms(l.p95),
      fmt.ratio(ratio),
      targeted ? `${verdict(l.p95, READ_P95_TARGET)} / ${verdict(ratio, READ_RATIO_TARGET)}` : "—",
    ];
  };
  const rows = READ_PATHS.map(({ label, targeted }, i) => row(label, [a.reads![i], b.reads![i]], targeted));
  // Every alert rule's evaluation, beside the alerts list: not a read over HTTP, but the queue's job in this process.
  const evaluation = row(
    `evaluateAlerts: every rule (${a.alerts!.rules}, ${a.alerts!.projects} projects), in-process`,
    [a.alerts!.evaluation, b.alerts!.evaluation],
    true,
  );
  rows.splice(
    READ_PATHS.findIndex((p) => p.path === ALERT_LIST_PATH),
    0,
    evaluation,
  );
  const [sl, ll] = [countLabel(a.load.events), countLabel(b.load.events)];
  ctx.print(
    markdownTable(
      [
        "read",
        `${sl} p50 ms`,
        `${sl} p95 ms`,
        `${ll} p50 ms`,
        `${ll} p95 ms`,
        `${ll}/${sl} (p50)`,
        `p95 ≤ ${READ_P95_TARGET} ms / ratio ≤ ${READ_RATIO_TARGET}`,
      ],
      rows,
    ),
  );
  ctx.print();
  ctx.print(`settle (rebuild every run before timing): ${a.settleSeconds.toFixed(1)} s at ${sl}, ${b.settleSeconds.toFixed(1)} s at ${ll}`);
  ctx.print(
    `alerts: ${a.alerts!.rules} rules (the same at both sizes), evaluated at ${ALERT_NOW.toISOString()}: ` +
      `${a.alerts!.fired} → ${b.alerts!.fired} of the listed project's fired, which has ${a.alerts!.alerts} → ${b.alerts!.alerts} alerts` +
      (a.alerts!.alerts === b.alerts!.alerts ? " (the same)" : " (NOT the same: the list's ratio compares different alerts)"),
  );
}

function reportIngest(ctx: BenchContext, db: string, measured: DatasetMeasurement[]): void {
  ctx.print();
  ctx.print(
    `Ingest (${db}): ingestBatch with 2 concurrent senders vs raw multi-row INSERTs of the same rows into a copy of the events table, batches of 500, chunk by chunk in one run:`,
  );
  ctx.print();
  ctx.print(
    markdownTable(
      ["events", "ingestBatch events/s", "raw INSERT events/s", "clients (raw)", "ingest/raw", `target ≥ ${INGEST_RATIO_TARGET}`],
      measured.map((m) => {
        const ingest = m.load.events / m.load.ingestSeconds;
        const raw = m.load.events / m.load.rawSeconds!;
        return [
          fmt.int(m.load.events),
          fmt.int(ingest),
          fmt.int(raw),
          String(m.rawClients),
          fmt.ratio(ingest / raw),
          ingest / raw >= INGEST_RATIO_TARGET ? "PASS" : "MISS",
        ];
      }),
    ),
  );
}

function reportReplay(ctx: BenchContext, db: string, m: DatasetMeasurement): void {
  const r = m.replay!;
  ctx.print();
  ctx.print(
    `Replay isolation (${db}): another project's GET /api/v1/runs while a what-if replay of ${fmt.int(r.replayTurns)} turns ` +
      `(${r.replayRuns} runs, ${countLabel(m.load.events)} events) ran for ${r.replaySeconds.toFixed(1)} s (${r.status}; the POST answered after ${fmt.int(r.postMs)} ms):`,
  );
  ctx.print();
  ctx.print(
    markdownTable(
      ["other project's GET /api/v1/runs", "requests", "p50 ms", "p95 ms", "max ms", `p95 ≤ ${REPLAY_P95_TARGET} ms`],
      [
        [
          "no replay running",
          String(r.quiet.count),
          fmt.ms(r.quiet.p50),
          fmt.ms(r.quiet.p95),
          "—",
          verdict(r.quiet.p95, REPLAY_P95_TARGET),
        ],
        [
          "during the replay",
          String(r.during.count),
          fmt.ms(r.during.p50),
          fmt.ms(r.during.p95),
          fmt.ms(r.during.max),
          verdict(r.during.p95, REPLAY_P95_TARGET),
        ],
      ],
    ),
  );
  ctx.print();
  ctx.print(targetLine("replay pace", r.replayTurns / r.replaySeconds, "turns/s", { atLeast: REPLAY_TURNS_PER_S_TARGET }));
  ctx.print(targetLine("other project's GET /api/v1/runs p95 during the replay", r.during.p95, "ms", { atMost: REPLAY_P95_TARGET }));
  ctx.print(
    targetLine(
      `GET /api/v1/health p95 during the replay (${r.health.count} requests, max ${fmt.ms(r.health.max)} ms)`,
      r.health.p95,
      "ms",
      {
        atMost: HEALTH_P95_TARGET,
      },
    ),
  );
}

async function live(ctx: BenchContext, db: string): Promise<void> {
  const m = await measureLiveRun(ctx, 20_000, 10, 20);
  ctx.print();
  ctx.print(
    `Live run (${db}, its own database): ${fmt.int(m.turns)} turns, ${fmt.int(m.events)} events in ${fmt.int(m.batches)} batches of 10 turns over POST /api/v1/ingest; ` +
      `the run page's poll (summary and timeline at once) every ${m.polls[0].batches} batches:`,
  );
  ctx.print();
  ctx.print(
    markdownTable(
      ["batches sent", "turn", "summary ms", "timeline ms", "poll ms"],
      m.polls.map((p) => [fmt.int(p.batches), fmt.int(p.turn), fmt.ms(p.summaryMs), fmt.ms(p.timelineMs), fmt.ms(p.pollMs)]),
    ),
  );
  const start = median(m.polls.slice(0, 3).map((p) => p.pollMs));
  const end = median(m.polls.slice(-3).map((p) => p.pollMs));
  ctx.print();
  ctx.print(
    `poll at the start (median of the first 3): ${fmt.ms(start)} ms; at the end (median of the last 3): ${fmt.ms(end)} ms (target ≤ ${LIVE_END_TARGET} ms) ${verdict(end, LIVE_END_TARGET)}`,
  );
  const h = m.health;
  ctx.print(
    targetLine(`GET /api/v1/health p95 while the run was appended (${h.count} requests, max ${fmt.ms(h.max)} ms)`, h.p95, "ms", {
      atMost: HEALTH_P95_TARGET,
    }),
  );
}

async function longRun(ctx: BenchContext, db: string): Promise<void> {
  const m = await measureLongRun(ctx, 5_000, 50_000);
  const ratio = m.longColdMs / m.shortColdMs;
  ctx.print();
  ctx.print(
    `Long run, first chart (${db}, its own database): GET …/timeline of the whole run, the run page's first chart request; cold = first request after ingest and settle:`,
  );
  ctx.print();
  ctx.print(
    markdownTable(
      ["run", "turns", "events", "cold ms", "warm ms (median of 5)"],
      [
        ["short", fmt.int(m.shortTurns), fmt.int(m.shortEvents), fmt.ms(m.shortColdMs), fmt.ms(m.shortWarmMs)],
        ["long", fmt.int(m.longTurns), fmt.int(m.longEvents), fmt.ms(m.longColdMs), fmt.ms(m.longWarmMs)],
      ],
    ),
  );
  ctx.print();
  ctx.print(
    `cold long/short = ${fmt.ratio(ratio)} (turns ×${m.longTurns / m.shortTurns}; target ≤ ${LONG_RATIO_TARGET}) ${verdict(ratio, LONG_RATIO_TARGET)}`,
  );
}

async function decisions(ctx: BenchContext, db: string, requests: number): Promise<void> {
  const turns = DECISIONS_TURNS;
  const m = await measureDecisions(ctx, turns, { repeats: Math.min(ctx.repeats, 5), requests });
  ctx.print();
  ctx.print(
    `Whole-run decisions (${db}, its own database): (a) the run's stored chunk texts read as plain rows from the database, ` +
      `(b) GET …/decisions over HTTP from the production server, whole body, its bytes as they are (accept-encoding: identity), taken with node:http; ` +
      `(c) the same taken with fetch (arrayBuffer: more of this process's CPU); ` +
      `(d) the same gzip-compressed, with fetch (Next's compression, as fetch asks by default; no target: it trades CPU for 20–30× fewer bytes on the wire) ` +
      `(medians of ${Math.min(ctx.repeats, 5)}, the three in turn); ` +
      `(a′) on PostgreSQL: (a) again while the server runs, once before each round of the three (same moments as (b); (a) is read before the server starts); ` +
      `the server's RSS growth while (b) ran; the zoomed timeline, ${requests} requests of another 500-turn window each:`,
  );
  ctx.print();
  ctx.print(
    markdownTable(
      [
        "turns",
        "chunks",
        "MB",
        "(a) rows ms",
        "(b) download ms",
        `(b)/(a) ≤ ${DECISIONS_RATIO_TARGET}`,
        "(a′) rows ms between",
        "(b)/(a′)",
        "(c) fetch ms",
        "(c)/(a)",
        "(d) gzip ms",
        "(d)/(a)",
        `RSS growth MB ≤ ${DECISIONS_RSS_TARGET_MB}`,
        "zoom p50 ms",
        `zoom p95 ms ≤ ${ZOOM_P95_TARGET}`,
      ],
      m.runs.map((r) => {
        const ratio = r.downloadMs / r.rowsMs;
        const rss = r.rssGrowthBytes / 1e6;
        return [
          fmt.int(r.turns),
          fmt.int(r.chunks),
          fmt.mb(r.downloadBytes),
          fmt.ms(r.rowsMs),
          fmt.ms(r.downloadMs),
          `${fmt.ratio(ratio)} ${verdict(ratio, DECISIONS_RATIO_TARGET)}`,
          Number.isNaN(r.rowsBetweenMs) ? "–" : fmt.ms(r.rowsBetweenMs),
          Number.isNaN(r.rowsBetweenMs) ? "–" : fmt.ratio(r.downloadMs / r.rowsBetweenMs),
          fmt.ms(r.fetchMs),
          fmt.ratio(r.fetchMs / r.rowsMs),
          fmt.ms(r.gzipMs),
          fmt.ratio(r.gzipMs / r.rowsMs),
          `${rss.toFixed(1)} ${verdict(rss, DECISIONS_RSS_TARGET_MB)}`,
          fmt.ms(r.zoom.p50),
          `${fmt.ms(r.zoom.p95)} ${verdict(r.zoom.p95, ZOOM_P95_TARGET)}`,
        ];
      }),
    ),
  );
  const c = m.concurrent;
  const statuses = [...c.statuses.entries()].map(([status, n]) => `${n}× ${status}`).join(", ");
  const no5xx = [...c.statuses.keys()].every((s) => s === 200 || s === 503);
  ctx.print();
  ctx.print(
    `${c.downloads} concurrent downloads of the ${fmt.int(DECISIONS_TURNS.at(-1)!)}-turn run: ${statuses} in ${fmt.int(c.wallMs)} ms ` +
      `(${no5xx ? "PASS" : "MISS"}: only 200, or 503 past the project's bound); /api/v1/health meanwhile: ${c.health.count} requests, ` +
      `p50 ${fmt.ms(c.health.p50)} ms, p95 ${fmt.ms(c.health.p95)} ms (target ≤ ${HEALTH_P95_TARGET}) ${verdict(c.health.p95, HEALTH_P95_TARGET)}, max ${fmt.ms(c.health.max)} ms ` +
      `(polled from a process of its own); the server's worst event-loop lag in the last 60 s, as /health reports it: ${fmt.int(c.worstLagMs)} ms`,
  );
}

async function pages(ctx: BenchContext, db: string): Promise<void> {
  const rounds = 5;
  const measured = await measurePages(ctx, PAGE_TURNS, { readers: PAGE_READERS, rounds });
  ctx.print();
  ctx.print(
    `Pages (${db}, their own database): each page served to ${PAGE_READERS} concurrent signed-in readers, ${rounds} loads each (after an untimed warm-up round of every page): ` +
      "until its HTML has arrived, and until the data it preloads (the run page's timeline) has too, fetched once the HTML is whole (a browser starts earlier):",
  );
  ctx.print();
  const cell = (s: Spread | null, pick: "p50" | "p95" | "max") => (s ? fmt.ms(s[pick]) : "–");
  ctx.print(
    markdownTable(
      ["page", "loads", "HTML p50 ms", "HTML p95 ms", "HTML max ms", "with data p50 ms", "with data p95 ms", "with data max ms"],
      measured.map((m) => [
        m.label,
        String(m.latency.count),
        cell(m.latency, "p50"),
        cell(m.latency, "p95"),
        cell(m.latency, "max"),
        cell(m.withData, "p50"),
        cell(m.withData, "p95"),
        cell(m.withData, "max"),
      ]),
    ),
  );
  ctx.print();
  for (const m of measured) {
    ctx.print(targetLine(`${m.label} p95, ${PAGE_READERS} readers (HTML)`, m.latency.p95, "ms", { atMost: PAGE_P95_TARGET }));
    if (m.withData)
      ctx.print(
        targetLine(`${m.label} p95, ${PAGE_READERS} readers (HTML and its preloaded data)`, m.withData.p95, "ms", {
          atMost: PAGE_P95_TARGET,
        }),
      );
  }
  // Issue 27: the comparison of two 50,000-turn runs renders its first view within 2× of one run's page.
  const longest = Math.max(...PAGE_TURNS);
  const runPage = measured.find((m) => m.label.startsWith("run page") && m.turns === longest);
  const comparison = measured.find((m) => m.label.startsWith("comparison page"));
  if (runPage && comparison) {
    ctx.print(
      targetLine(
        `comparison page p95 / ${longest.toLocaleString("en-US")}-turn run page p95`,
        comparison.latency.p95 / runPage.latency.p95,
        "×",
        {
          atMost: COMPARE_PAGE_RATIO_TARGET,
        },
      ),
    );
  }
}
