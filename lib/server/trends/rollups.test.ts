import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/server/db";
import { testDatabases } from "@/lib/server/testing/databases";
import { perRunCounts, perRunVersions, rollupDrift } from "@/lib/server/testing/trend-rollups";
import { BUCKET_MS, type TrendBucket } from "@/lib/trends/buckets";
import { clearTrendBuckets, storeTrendBuckets, type StoredTrendBuckets, type TrendRun } from "./store-buckets";
import { windowCounts, windowDays, windowEffectCounts, windowVersions, type TrendFilters, type TrendWindow } from "./trends";

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const START = Date.parse("2026-03-27T00:00:00Z");
const SPAN_BUCKETS = 4 * 96; // four days of buckets, over the Paris change to summer time (2026-03-29)
const AGENTS = ["agent-a", "agent-b", null] as const;
const MODELS = ["model-x", "model-y", null] as const;
const COPIES = ["c".repeat(28), "d".repeat(28)];
const POLICIES = ["a".repeat(28), "b".repeat(28)];
/** Most runs name no experiment (contract §10); those that do, one of two, and an arm of it. */
const EXPERIMENTS = ["exp-1", "exp-2", null, null] as const;
const ARMS = ["control", "urgent"] as const;
const KEYS = [
  "turns",
  "reminders.requests.candidates",
  "reminders.requests.dropped",
  "reminders.context.delivered",
  "findings.MISSING_REMINDER",
  "reviewerViolations",
  "followUp.requests.delivered",
  "followUp.requests.followed",
  // Contract §10's keys, which the effectiveness read sums (windowEffectCounts).
  "effect.requests.1.2.delivered",
  "effect.requests.1.none.dropped",
  "effect.requests.2.2.delivered",
  "effect.time.0.3.deliveredFollowed",
  "fatigue.requests.repeats",
];
const EFFECT_LIKE = ["effect.%", "fatigue.%", "reminders.%.delivered"];

/**
 * What windowEffectCounts answers, from a window's per-run sums (each key and day): the keys the
 * effectiveness read asks for summed over the days, and each day's sums with the key's stage and
 * context stage left out of its `effect.` keys (contract §10: effect.<key>.<stage>.<ctx>.<count>).
 */
function effectSums(counts: readonly { day: string; key: string; n: number }[]) {
  const asked = counts.filter((c) => /^(effect\.|fatigue\.|reminders\.[^.]+\.delivered$)/.test(c.key));
  const totals = new Map<string, number>();
  const days = new Map<string, { day: string; key: string; n: number }>();
  for (const { day, key, n } of asked) {
    totals.set(key, (totals.get(key) ?? 0) + n);
    const name = key.replace(/^effect\.([a-z]+)\.[^.]+\.[^.]+\.([A-Za-z]+)$/, "effect.$1.$2");
    const id = `${day} ${name}`;
    days.set(id, { day, key: name, n: (days.get(id)?.n ?? 0) + n });
  }
  return { totals: sorted([...totals].map(([key, n]) => ({ key, n }))), days: sorted([...days.values()]) };
}

type StoredRun = TrendRun & { copyVersion: string; policyVersion: string; buckets: TrendBucket[]; stored?: StoredTrendBuckets };

const sorted = <T>(rows: T[]): T[] =>
  rows
    .map((r) => JSON.stringify(r))
    .sort()
    .map((r) => JSON.parse(r) as T);

/** Buckets of a run from its `first` bucket on: 1–6 of them, each with some count keys (zeros left out, as stored). */
function randomBuckets(rng: () => number, first: number): TrendBucket[] {
  const buckets: TrendBucket[] = [];
  let at = first;
  for (let i = 1 + Math.floor(rng() * 6); i > 0 && at < SPAN_BUCKETS; i--) {
    const counts: Record<string, number> = { turns: 1 + Math.floor(rng() * 20) };
    for (const key of KEYS.slice(1)) if (rng() < 0.5) counts[key] = 1 + Math.floor(rng() * 5);
    buckets.push({ bucketMs: START + at * BUCKET_MS, counts });
    at += 1 + Math.floor(rng() * 8);
  }
  return buckets;
}

describe.each(testDatabases())("trend rollups on $name", (kind) => {
  let db: Database;
  const projects: string[] = [];
  let runCount = 0;

  beforeAll(async () => {
    db = await kind.open();
    for (const name of ["rollups-a", "rollups-b"]) projects.push((await db.prisma.project.create({ data: { name } })).id);
  }, 180_000); // PGlite starts slowly on a busy machine
  afterAll(async () => db?.close());

  async function newRun(rng: () => number, projectId: string): Promise<StoredRun> {
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rng() * xs.length)];
    const id = `run-${++runCount}`;
    const experimentId = pick(EXPERIMENTS);
    const run = {
      id,
      projectId,
      agent: pick(AGENTS),
      model: pick(MODELS),
      experimentId,
      experimentArm: experimentId === null ? null : pick(ARMS),
      copyVersion: pick(COPIES),
      policyVersion: pick(POLICIES),
      buckets: [],
    };
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO "runs" ("id", "project_id", "run_id", "task", "agent", "model", "experiment_id", "experiment_arm", "event_count")
       VALUES ($1, $2, $1, 'rollups', $3, $4, $5, $6, 1)`,
      id,
      projectId,
      run.agent,
      run.model,
      run.experimentId,
      run.experimentArm,
    );
    return run;
  }

  /** What a rebuild's transaction does: replace the run's buckets (or clear them, for a failed rebuild). */
  async function store(run: StoredRun, buckets: TrendBucket[] | null, resumed = false): Promise<void> {
    run.stored = await db.prisma.$transaction(async (tx) => {
      const trends = { copyVersion: run.copyVersion, policyVersion: run.policyVersion, buckets: buckets ?? [] };
      // A resume knows what the run stored: only the changed buckets are written (updated in place).
      if (buckets) return storeTrendBuckets(tx, run, trends, resumed ? run.stored : undefined);
      await clearTrendBuckets(tx, run);
      return undefined;
    });
    run.buckets = buckets ?? [];
  }

  async function expectSameReads(): Promise<void> {
    expect(await rollupDrift(db)).toEqual([]);
    const windows: TrendWindow[] = [
      { tz: "UTC", from: "2026-03-26", to: "2026-04-01" },
      { tz: "Europe/Paris", from: "2026-03-27", to: "2026-03-30" },
      { tz: "Asia/Kathmandu", from: "2026-03-28", to: "2026-03-29" }, // +05:45
      { tz: "America/St_Johns", from: "2026-03-26", to: "2026-03-31" }, // -02:30 in summer
      { tz: "Asia/Kolkata", from: "2026-03-29", to: "2026-03-29" },
      { tz: "Etc/GMT+8", from: "2026-03-26", to: "2026-03-31" }, // -08:00
      { tz: "America/Los_Angeles", from: "2026-03-27", to: "2026-03-30" }, // -07:00
      { tz: "Pacific/Kiritimati", from: "2026-03-27", to: "2026-04-01" }, // +14:00
      { tz: "Pacific/Chatham", from: "2026-03-27", to: "2026-03-31" }, // +13:45
      { tz: "Europe/London", from: "2026-03-28", to: "2026-03-30" }, // to summer time on the 29th
      { tz: "Australia/Lord_Howe", from: "2026-03-27", to: "2026-03-30" }, // +11:00
      { tz: "Asia/Tehran", from: "2026-03-27", to: "2026-03-30" }, // +03:30
      { tz: "Asia/Kathmandu", from: "2026-03-27", to: "2026-03-27" },
    ];
    const filters: TrendFilters[] = [
      {},
      { agent: "agent-a" },
      { model: "model-y" },
      { agent: "agent-b", model: "model-x" },
      { copyVersion: COPIES[0] },
      { policyVersion: POLICIES[1] },
      { agent: "agent-a", policyVersion: POLICIES[0], copyVersion: COPIES[1] },
      { agent: "nobody" },
      { experiment: "exp-1" },
      { experiment: "exp-1", arm: "urgent" },
      { experiment: "exp-2", agent: "agent-a", copyVersion: COPIES[0] },
      { experiment: "exp-2", arm: "control", model: "model-x" },
      // No rollup keeps an experiment per policy version: summed from the runs' buckets.
      { experiment: "exp-1", policyVersion: POLICIES[0] },
      { experiment: "exp-2", arm: "control", policyVersion: POLICIES[1] },
      { experiment: "nobody" },
    ];
    for (const projectId of projects) {
      for (const w of windows) {
        expect(sorted(await windowVersions(db, projectId, w))).toEqual(sorted(await perRunVersions(db, projectId, w)));
        for (const f of filters) {
          const want = sorted(await perRunCounts(db, projectId, w, f));
          expect(sorted(await windowCounts(db, projectId, w, f)), JSON.stringify({ w, f })).toEqual(want);
          // Only some count keys (as the effectiveness and trends reads ask): the same rows, those keys only.
          const keys = { like: ["turns", "reminders.%.delivered"] };
          const wanted = want.filter((c) => c.key === "turns" || /^reminders\.[^.]+\.delivered$/.test(c.key));
          expect(sorted(await windowCounts(db, projectId, w, { ...f, keys })), JSON.stringify({ w, f, keys })).toEqual(wanted);
          // The effectiveness read's sums: per key over the window, and per day with effect keys collapsed.
          const effect = await windowEffectCounts(db, projectId, w, { ...f, keys: { like: EFFECT_LIKE } });
          expect({ totals: sorted(effect.totals), days: sorted(effect.days) }, JSON.stringify({ w, f, effect: true })).toEqual(
            effectSums(want),
          );
        }
      }
    }
  }

  it("reads what summing every run's buckets reads, through full and resumed rebuilds, failed ones and deletes", async () => {
    const rng = random(22);
    const runs: StoredRun[] = [];
    for (let i = 0; i < 24; i++) {
      const run = await newRun(rng, projects[i % 2]);
      await store(run, randomBuckets(rng, Math.floor(rng() * SPAN_BUCKETS)));
      runs.push(run);
    }
    expect(runs.filter((r) => r.buckets.length > 0).length).toBeGreaterThan(20);
    await expectSameReads();

    for (let step = 1; step <= 90; step++) {
      const run = runs[Math.floor(rng() * runs.length)];
      const roll = rng();
      if (roll < 0.35) {
        // A full rebuild: the buckets may all move (a late event changes the turns' times).
        await store(run, randomBuckets(rng, Math.floor(rng() * SPAN_BUCKETS)));
      } else if (roll < 0.7) {
        // A resumed rebuild: the buckets before the resumed turns stay, the last ones change and more follow.
        // Now and then the run is in another experiment or arm by now (a run.started that came late):
        // every bucket is filed anew.
        if (rng() < 0.15) {
          run.experimentId = EXPERIMENTS[Math.floor(rng() * EXPERIMENTS.length)];
          run.experimentArm = run.experimentId === null ? null : ARMS[Math.floor(rng() * ARMS.length)];
          await db.prisma.run.update({
            where: { projectId_id: { projectId: run.projectId, id: run.id } },
            data: { experimentId: run.experimentId, experimentArm: run.experimentArm },
          });
        }
        const kept = run.buckets.slice(0, Math.floor(rng() * (run.buckets.length + 1)));
        const from = kept.length ? (kept[kept.length - 1].bucketMs - START) / BUCKET_MS : Math.floor(rng() * SPAN_BUCKETS);
        const more = randomBuckets(rng, from).filter((b) => !kept.some((k) => k.bucketMs === b.bucketMs));
        // Some counts of the kept buckets change too (a late event), as a resume's would.
        const touched = kept.map((b) => (rng() < 0.3 ? { ...b, counts: { ...b.counts, turns: b.counts.turns + 1 } } : b));
        await store(run, [...touched, ...more], true);
      } else if (roll < 0.8) {
        await store(run, null); // a failed rebuild stores no buckets
      } else if (roll < 0.9) {
        await db.prisma.run.delete({ where: { projectId_id: { projectId: run.projectId, id: run.id } } });
        runs.splice(runs.indexOf(run), 1, await newRun(rng, run.projectId));
      } else {
        const added = await newRun(rng, projects[Math.floor(rng() * 2)]);
        await store(added, randomBuckets(rng, Math.floor(rng() * SPAN_BUCKETS)));
        runs.push(added);
      }
      if (step % 30 === 0) await expectSameReads();
    }

    // Retention's statement: every run of a project that ended before a day goes, with its buckets.
    await db.prisma.$executeRawUnsafe(
      `DELETE FROM "runs" r WHERE r."project_id" = $1 AND NOT EXISTS (
         SELECT 1 FROM "trend_buckets" b WHERE b."project_id" = r."project_id" AND b."run_pk" = r."id" AND b."bucket" >= '2026-03-29')`,
      projects[0],
    );
    await expectSameReads();
    // A project deleted takes its buckets and its rollups.
    await db.prisma.project.delete({ where: { id: projects[1] } });
    expect(await db.prisma.trendRollup.count({ where: { projectId: projects[1] } })).toBe(0);
    expect(await db.prisma.trendAgentRollup.count({ where: { projectId: projects[1] } })).toBe(0);
    expect(await db.prisma.trendExperimentRollup.count({ where: { projectId: projects[1] } })).toBe(0);
    expect(await rollupDrift(db)).toEqual([]);
  }, 300_000);

  it("replaces every bucket when a resume's idea of what is stored is stale (a bucket it lists is gone)", async () => {
    const rng = random(31);
    const run = await newRun(rng, projects[0]);
    const buckets = randomBuckets(rng, 2).slice(0, 3);
    await store(run, buckets);
    // Something else removed a bucket the resume state still lists (a stale resume state).
    await db.prisma.$executeRawUnsafe(
      `DELETE FROM "trend_buckets" WHERE "run_pk" = $1 AND "bucket" = to_timestamp($2 / 1000.0)`,
      run.id,
      buckets[0].bucketMs,
    );
    const next = buckets.map((b) => ({ ...b, counts: { ...b.counts, turns: b.counts.turns + 2 } }));
    await store(run, next, true);
    const stored = await db.prisma.trendBucket.findMany({ where: { runPk: run.id }, orderBy: { bucket: "asc" } });
    expect(stored.map((b) => [b.bucket.getTime(), b.counts])).toEqual(next.map((b) => [b.bucketMs, b.counts]));
    expect(await rollupDrift(db)).toEqual([]);
  });

  it("adds up the rebuilds of runs of one project stored at once, with the same buckets", async () => {
    const rng = random(8);
    const projectId = (await db.prisma.project.create({ data: { name: "rollups-concurrent" } })).id;
    const runs: StoredRun[] = [];
    for (let i = 0; i < 6; i++) runs.push({ ...(await newRun(rng, projectId)), agent: "agent-a", model: null });
    const shared = (round: number): TrendBucket[] =>
      [0, 1, 2, 3].map((b) => ({
        bucketMs: START + (round % 3) * BUCKET_MS + b * BUCKET_MS,
        counts: { turns: 1 + b, reviewerViolations: round },
      }));
    for (let round = 1; round <= 8; round++) {
      // Each round, every run's rebuild replaces its buckets at once: old buckets subtracted, new ones added.
      await Promise.all(runs.map((run, i) => store(run, i % 3 === round % 3 ? null : shared(round + i))));
    }
    expect(await rollupDrift(db)).toEqual([]);
    const total = runs.reduce((sum, run) => sum + run.buckets.reduce((s, b) => s + b.counts.turns, 0), 0);
    const [{ n }] = await db.prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT coalesce(sum("n"), 0)::float8 AS "n" FROM "trend_rollups" WHERE "project_id" = $1 AND "minutes" = 15 AND "key" = 'turns'`,
      projectId,
    );
    expect(n).toBe(total);
    expect(total).toBeGreaterThan(0);
  }, 120_000);

  it("reads a day whose clock went back across midnight as every bucket of that date (America/Juneau, 1867-10-18, twice as long)", async () => {
    // In tzdata, Alaska went from UTC+15:02:19 to UTC-08:57:41 on 1867-10-18: the day has 48 hours, and
    // no bucket is on a whole quarter of its bounds. The read groups the buckets by their date instead.
    const rng = random(1867);
    const projectId = (await db.prisma.project.create({ data: { name: "rollups-juneau" } })).id;
    const first = Date.parse("1867-10-16T00:00:00Z");
    for (let i = 0; i < 6; i++) {
      // Half of them of the agent the read filters by, whatever the generator picked.
      const run = { ...(await newRun(rng, projectId)), ...(i % 2 === 0 ? { agent: "agent-a" as const } : {}) };
      await store(
        run,
        Array.from({ length: 40 }, (_, b) => ({
          bucketMs: first + (i * 13 + b * 7) * BUCKET_MS,
          counts: { turns: 1 + b, reviewerViolations: i + 1 },
        })),
      );
    }
    const juneau: TrendWindow = { tz: "America/Juneau", from: "1867-10-16", to: "1867-10-20" };
    expect((await windowDays(db, juneau)).map((d) => d.exact)).toEqual([true, true, false, true, true]);
    for (const w of [
      juneau,
      { tz: "UTC", from: "1867-10-16", to: "1867-10-20" },
      { tz: "America/Juneau", from: "1867-10-19", to: "1867-10-20" },
    ]) {
      expect(sorted(await windowVersions(db, projectId, w))).toEqual(sorted(await perRunVersions(db, projectId, w)));
      for (const f of [{}, { agent: "agent-a" }]) {
        const want = sorted(await perRunCounts(db, projectId, w, f));
        expect(want.length).toBeGreaterThan(0);
        expect(sorted(await windowCounts(db, projectId, w, f)), JSON.stringify({ w, f })).toEqual(want);
      }
    }
    expect(await rollupDrift(db)).toEqual([]);
  }, 120_000);

  it("keeps the rollups exact through a bucket updated in place, whatever columns change", async () => {
    const rng = random(5);
    const run = await newRun(rng, projects[0]);
    await store(run, randomBuckets(rng, 10));
    await db.prisma.$executeRawUnsafe(
      `UPDATE "trend_buckets" SET "counts" = '{"turns": 1, "reviewerViolations": 2}'::jsonb WHERE "run_pk" = $1`,
      run.id,
    );
    expect(await rollupDrift(db)).toEqual([]);
    await db.prisma.$executeRawUnsafe(
      `UPDATE "trend_buckets" SET "bucket" = "bucket" + interval '1 day', "agent" = 'agent-z', "copy_version" = 'moved' WHERE "run_pk" = $1`,
      run.id,
    );
    expect(await rollupDrift(db)).toEqual([]);
    await db.prisma.$executeRawUnsafe(`UPDATE "trend_buckets" SET "counts" = '{}'::jsonb WHERE "run_pk" = $1`, run.id);
    expect(await rollupDrift(db)).toEqual([]);
  });
});
