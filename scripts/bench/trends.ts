/**
 * The trends read (GET /api/v1/trends, lib/server/trends/trends.ts) of a fixed 14-day window at two
 * sizes: N runs in the window, then 10×N (with as many runs again outside it, and 10 more projects
 * of N runs each in it). Each run has 13 consecutive 15-minute buckets (about 3 hours, like the
 * scale bench's runs) of 3 agents × 4 models × 2 copy versions. The read sums the project's
 * rollups (trend_rollups), so what it reads follows the window and the versions in it, not the
 * runs: the report is the ratio of the two medians, measured in one run (no test asserts a time),
 * beside the read the rollups replaced (summing every run's buckets, lib/server/testing/trend-rollups.ts)
 * and the cost of a rebuild's write of one run's buckets (which keeps the rollups) at each size.
 * The effectiveness read (contract §10) of the same window is timed the same way, and an experiment's
 * results whose runs are the window's runs (200, then 2,000: results read its arms' rollups).
 *
 * The buckets go in by one INSERT per batch of runs, so the rollups are filled by the same triggers
 * as a rebuild's. PostgreSQL with DATABASE_URL (a scratch database), else PGlite.
 */
import { authenticate, createKey } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { perRunCounts } from "@/lib/server/testing/trend-rollups";
import { storeTrendBuckets } from "@/lib/server/trends/store-buckets";
import { getExperimentResults } from "@/lib/server/experiments/results";
import { getEffectiveness } from "@/lib/server/trends/effectiveness";
import { getTrends, type TrendFilters } from "@/lib/server/trends/trends";
import { BUCKET_MS } from "@/lib/trends/buckets";
import { collectGarbage, fmt, markdownTable, median, verdict, type BenchContext, type BenchSection } from "./common";
import { createScratchDatabase } from "./scale-db";

/** Runs in the window at the small size (the large one has 10×). */
const N = 200;
const FROM = "2026-11-16";
const TO = "2026-11-29";
const TZ = "Europe/Paris";
/** Buckets of one run. */
const RUN_BUCKETS = 13;
const RATIO_TARGET = 1.5;
const FILTER: TrendFilters = { agent: "agent-1" };

export function trendsSection(): BenchSection {
  return {
    name: "trends",
    description: `the trends read of a 14-day window with ${N} runs in it, then ${10 * N} (and as many outside, and 10 more projects)`,
    run,
  };
}

const COUNTS = JSON.stringify({
  turns: 12,
  "reminders.requests.candidates": 3,
  "reminders.requests.delivered": 2,
  "reminders.requests.dropped": 1,
  "reminders.context.candidates": 2,
  "reminders.context.delivered": 2,
  "findings.MISSING_REMINDER": 1,
  "followUp.requests.delivered": 2,
  "followUp.requests.followed": 1,
  // Contract §10's keys, as a rebuild stores them since TREND_VERSION 2.
  "effect.requests.1.0.delivered": 1,
  "effect.requests.1.0.deliveredFollowed": 1,
  "effect.requests.2.3.delivered": 1,
  "effect.requests.2.3.dropped": 1,
  "effect.context.1.1.delivered": 2,
  "effect.context.1.1.deliveredFollowed": 1,
  "fatigue.requests.bytes": 180,
  "fatigue.requests.contextBytes": 180,
  "fatigue.context.bytes": 90,
  "fatigue.context.contextBytes": 90,
  "fatigue.capacityBytes": 2400000,
});

/** One ended run's counts in an experiment (lib/derived/effectiveness experimentRunCounts' keys). */
const EXPERIMENT_COUNTS = JSON.stringify({
  runs: 1,
  "due.requests.x": 1,
  "due.requests.y": 2,
  "due.requests.xx": 1,
  "due.requests.yy": 4,
  "due.requests.xy": 2,
  "followUp.requests.x": 1,
  "followUp.requests.y": 2,
  "followUp.requests.xx": 1,
  "followUp.requests.yy": 4,
  "followUp.requests.xy": 2,
  "drop.requests.x": 1,
  "drop.requests.y": 3,
  "drop.requests.xx": 1,
  "drop.requests.yy": 9,
  "drop.requests.xy": 3,
  "bytesPerTurn.x": 270,
  "bytesPerTurn.y": 12,
  "bytesPerTurn.xx": 72900,
  "bytesPerTurn.yy": 144,
  "bytesPerTurn.xy": 3240,
  finished: 1,
  "requestsLeft.n": 1,
  "requestsLeft.sum": 4,
  "requestsLeft.sumSq": 16,
});

/** The bench's experiment (two arms) whose runs are the window's runs `in-…`. */
const EXPERIMENT = "bench-experiment";

/** The runs `in-first` … `in-last` as ended runs of the experiment, half in each arm (the rollups' trigger sums them). */
async function addExperimentRuns(db: Database, projectId: string, first: number, last: number) {
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO "experiment_runs" ("project_id", "run_pk", "experiment_id", "arm", "assigned_arm", "status", "counts")
     SELECT $1, 'in-' || i, $4, CASE WHEN i % 2 = 0 THEN 'A' ELSE 'B' END, CASE WHEN i % 2 = 0 THEN 'A' ELSE 'B' END, 'counted', $5::jsonb
       FROM generate_series($2::int, $3::int) AS i`,
    projectId,
    first,
    last,
    EXPERIMENT,
    EXPERIMENT_COUNTS,
  );
}

/**
 * Runs `first`..`first + runs - 1` of a project (named `prefix-i`), spread evenly over `days` days
 * from `start`, each with RUN_BUCKETS buckets from its start; with `experiment`, runs of it, half in
 * arm A and half in B (as addExperimentRuns files them).
 */
export async function addRuns(
  db: Database,
  projectId: string,
  prefix: string,
  first: number,
  runs: number,
  start: string,
  days: number,
  experiment: string | null = null,
) {
  const last = first + runs - 1;
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO "runs" ("id", "project_id", "run_id", "task", "agent", "model", "event_count")
     SELECT $2 || i, $1, $2 || i, 'bench', 'agent-' || (i % 3), 'model-' || (i % 4), 1 FROM generate_series($3::int, $4::int) AS i`,
    projectId,
    prefix,
    first,
    last,
  );
  // One statement per 200 runs: the rollups' trigger sums each statement's rows (500 ran into the
  // statement timeout once the triggers kept three tables).
  for (let from = first; from <= last; from += 200) {
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO "trend_buckets"
         ("project_id", "run_pk", "bucket", "agent", "model", "copy_version", "policy_version", "experiment_id", "experiment_arm", "counts")
       SELECT $1, $2 || i, to_timestamp(floor((extract(epoch FROM $5::timestamptz) * 1000 + (i * 7919 % $6::int)::float8 / $6 * $7 * 86400000) / $8) * $8 / 1000.0)
                + h * interval '15 minutes',
              'agent-' || (i % 3), 'model-' || (i % 4), lpad(to_hex(i % 2), 28, '0'), lpad('a', 28, '0'),
              $11::text, CASE WHEN $11::text IS NULL THEN NULL WHEN i % 2 = 0 THEN 'A' ELSE 'B' END, $9::jsonb
         FROM generate_series($3::int, $4::int) AS i, generate_series(0, $10::int - 1) AS h`,
      projectId,
      prefix,
      from,
      Math.min(from + 199, last),
      start,
      runs,
      days,
      BUCKET_MS,
      COUNTS,
      RUN_BUCKETS,
      experiment,
    );
  }
}

interface Measurement {
  runs: number;
  bucketRows: number;
  rollupRows: number;
  rollupMs: number;
  filteredMs: number;
  effectivenessMs: number;
  armEffectivenessMs: number;
  resultsMs: number;
  perRunMs: number;
  writeMs: number;
}

async function run(ctx: BenchContext): Promise<void> {
  const scratch = await createScratchDatabase();
  const db = await scratch.open();
  try {
    const { projectId } = await authenticate(db, `Bearer ${(await createKey(db, "bench-trends")).secret}`);
    const query = { tz: TZ, from: FROM, to: TO };
    const timed = async (what: string, read: () => Promise<unknown>) => {
      await read(); // warm-up
      collectGarbage();
      const times: number[] = [];
      for (let r = 0; r < ctx.repeats; r++) {
        ctx.progress(`trends: ${what}, repetition ${r + 1}/${ctx.repeats}`);
        const started = process.hrtime.bigint();
        await read();
        times.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
      return median(times);
    };
    let writes = 0;
    const measure = async (runs: number): Promise<Measurement> => {
      await db.prisma.$executeRawUnsafe(`VACUUM ANALYZE`); // what autovacuum does (docs/operations.md)
      const inWindow = `"project_id" = $1 AND "bucket" >= ($2::date::timestamp AT TIME ZONE $4) AND "bucket" < (($3::date + 1)::timestamp AT TIME ZONE $4)`;
      const count = async (sql: string) => (await db.prisma.$queryRawUnsafe<{ n: number }[]>(sql, projectId, FROM, TO, TZ))[0].n;
      return {
        runs,
        bucketRows: await count(`SELECT count(*)::int AS n FROM "trend_buckets" WHERE ${inWindow}`),
        rollupRows: await count(`SELECT count(*)::int AS n FROM "trend_rollups" WHERE ${inWindow} AND "minutes" = 15`),
        rollupMs: await timed(`${runs} runs, rollups`, () => getTrends(db, projectId, query)),
        filteredMs: await timed(`${runs} runs, rollups, one agent`, () => getTrends(db, projectId, { ...query, ...FILTER })),
        effectivenessMs: await timed(`${runs} runs, effectiveness`, () => getEffectiveness(db, projectId, query)),
        armEffectivenessMs: await timed(`${runs} runs, effectiveness of one arm`, () =>
          getEffectiveness(db, projectId, { ...query, experiment: EXPERIMENT, arm: "A" }),
        ),
        resultsMs: await timed(`${runs} runs, experiment results`, () => getExperimentResults(db, projectId, EXPERIMENT)),
        perRunMs: await timed(`${runs} runs, every run's buckets`, () => perRunCounts(db, projectId, query, {})),
        // A rebuild's write of one run's buckets (13 of them, in the window), which updates the rollups.
        writeMs: await timed(`${runs} runs, a rebuild's write of one run's buckets`, () => {
          const shift = writes++ % 4; // each write moves the run's buckets
          return db.prisma.$transaction((tx) =>
            storeTrendBuckets(
              tx,
              { id: "in-1", projectId, agent: "agent-1", model: "model-1", experimentId: EXPERIMENT, experimentArm: "B" },
              {
                copyVersion: "0".repeat(27) + "1",
                policyVersion: "a".padStart(28, "0"),
                buckets: Array.from({ length: RUN_BUCKETS }, (_, h) => ({
                  bucketMs: Date.parse(`${FROM}T06:00:00Z`) + (shift + h) * BUCKET_MS,
                  counts: JSON.parse(COUNTS) as Record<string, number>,
                })),
              },
            ),
          );
        }),
      };
    };

    await db.prisma.experiment.create({
      data: {
        id: EXPERIMENT,
        projectId,
        name: "bench",
        key: "requests",
        status: "running",
        createdBy: "bench",
        arms: { create: ["A", "B"].map((name, position) => ({ position, name, weight: 1, plannedRuns: N })) },
      },
    });
    ctx.progress(`trends: ${N} runs in the window ...`);
    await addRuns(db, projectId, "in-", 1, N, `${FROM}T00:00:00Z`, 14, EXPERIMENT);
    await addExperimentRuns(db, projectId, 1, N);
    const small = await measure(N);
    ctx.progress(`trends: ${9 * N} more runs in the window, ${10 * N} outside, 10 more projects ...`);
    await addRuns(db, projectId, "in-", N + 1, 9 * N, `${FROM}T00:00:00Z`, 14, EXPERIMENT);
    await addExperimentRuns(db, projectId, N + 1, 10 * N);
    await addRuns(db, projectId, "old-", 1, 10 * N, "2026-10-01T00:00:00Z", 14);
    for (let p = 0; p < 10; p++) {
      const other = (await authenticate(db, `Bearer ${(await createKey(db, `bench-trends-${p}`)).secret}`)).projectId;
      await addRuns(db, other, `p${p}-`, 1, N, `${FROM}T00:00:00Z`, 14);
    }
    const large = await measure(10 * N);

    const ratio = (pick: (m: Measurement) => number) => pick(large) / pick(small);
    ctx.print(
      `database: ${scratch.kind === "postgres" ? "PostgreSQL" : "PGlite"} (scratch); window ${FROM}–${TO} in ${TZ}; median of ${ctx.repeats}`,
    );
    ctx.print();
    /** One figure at both sizes, its ratio, and the target's verdict where it has one. */
    const row = (label: string, pick: (m: Measurement) => number, show: (n: number) => string, target?: number) => [
      label,
      show(pick(small)),
      show(pick(large)),
      fmt.ratio(ratio(pick)),
      target === undefined ? "—" : verdict(ratio(pick), target),
    ];
    ctx.print(
      markdownTable(
        ["", `${N} runs`, `${10 * N} runs`, "ratio", `target ≤ ${RATIO_TARGET}`],
        [
          row("run buckets in the window", (m) => m.bucketRows, fmt.int),
          row("15-minute rollup rows in the window (trend_rollups)", (m) => m.rollupRows, fmt.int),
          row("GET /api/v1/trends read, ms", (m) => m.rollupMs, fmt.ms, RATIO_TARGET),
          row("… with agent filter, ms", (m) => m.filteredMs, fmt.ms, RATIO_TARGET),
          row("GET /api/v1/effectiveness read (same window), ms", (m) => m.effectivenessMs, fmt.ms, RATIO_TARGET),
          row("… of one experiment arm (?experiment=&arm=), ms", (m) => m.armEffectivenessMs, fmt.ms, RATIO_TARGET),
          row("GET /api/v1/experiments/:id/results read (its runs: all of the window's), ms", (m) => m.resultsMs, fmt.ms, RATIO_TARGET),
          row("summing every run's buckets instead (before rollups), ms", (m) => m.perRunMs, fmt.ms),
          row("a rebuild's write of one run's buckets, ms", (m) => m.writeMs, fmt.ms),
        ],
      ),
    );
  } finally {
    await db.close();
    await scratch.remove();
  }
}
