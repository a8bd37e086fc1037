import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keysWithoutProject } from "@/lib/server/testing/key-audit";
import { bareDatabases, MIGRATIONS_DIR, migrationsBefore } from "@/lib/server/testing/migrations";
import { rollupDrift } from "@/lib/server/testing/trend-rollups";
import type { Database } from ".";
import { applyMigrations } from "./migrate";

const TREND_ROLLUPS = "20261224000000_trend_rollups";

describe.each(bareDatabases())(`${TREND_ROLLUPS} on a populated $name database`, (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  }, 180_000); // PGlite starts slowly on a busy machine
  afterAll(async () => db?.close());

  it("fills the rollups with the sums of the buckets stored before it, which later writes keep exact", async () => {
    await db.withSql((sql) => applyMigrations(sql, migrationsBefore(TREND_ROLLUPS)));
    const projectId = (await db.prisma.project.create({ data: { name: "trend-rollups-migration" } })).id;
    // Three runs as the previous version stored them: two share an agent, a bucket and a version.
    const runs = [
      {
        id: "r1",
        agent: "a",
        model: "m",
        buckets: { "2026-11-20T08:00Z": { turns: 3, reviewerViolations: 1 }, "2026-11-20T08:15Z": { turns: 1 } },
      },
      { id: "r2", agent: "a", model: null, buckets: { "2026-11-20T08:00Z": { turns: 2, "findings.MISSING_REMINDER": 4 } } },
      { id: "r3", agent: null, model: "m", buckets: { "2026-11-21T23:45Z": { turns: 5 } } },
    ];
    for (const run of runs) {
      await db.prisma.$executeRawUnsafe(
        `INSERT INTO "runs" ("id", "project_id", "run_id", "task", "agent", "model", "event_count") VALUES ($1, $2, $1, 't', $3, $4, 1)`,
        run.id,
        projectId,
        run.agent,
        run.model,
      );
      for (const [bucket, counts] of Object.entries(run.buckets)) {
        await db.prisma.$executeRawUnsafe(
          `INSERT INTO "trend_buckets" ("project_id", "run_pk", "bucket", "agent", "model", "copy_version", "policy_version", "counts")
           VALUES ($1, $2, $3::timestamptz, $4, $5, 'c', 'p', $6::jsonb)`,
          projectId,
          run.id,
          bucket,
          run.agent,
          run.model,
          JSON.stringify(counts),
        );
      }
    }

    expect(await db.withSql((sql) => applyMigrations(sql, migrationsBefore(TREND_ROLLUPS, true)))).toEqual([TREND_ROLLUPS]);
    const sums = await db.prisma.$queryRawUnsafe<{ bucket: string; key: string; n: number }[]>(
      `SELECT to_char("bucket" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS "bucket", "key", "n"::int AS "n"
         FROM "trend_rollups" WHERE "project_id" = $1 ORDER BY 1, 2`,
      projectId,
    );
    // Summed by hand from the rows above.
    expect(sums).toEqual([
      { bucket: "2026-11-20T08:00", key: "findings.MISSING_REMINDER", n: 4 },
      { bucket: "2026-11-20T08:00", key: "reviewerViolations", n: 1 },
      { bucket: "2026-11-20T08:00", key: "turns", n: 5 },
      { bucket: "2026-11-20T08:15", key: "turns", n: 1 },
      { bucket: "2026-11-21T23:45", key: "turns", n: 5 },
    ]);
    const byAgent = await db.prisma.$queryRawUnsafe<{ agent: string; model: string; n: number }[]>(
      `SELECT "agent", "model", sum("n")::int AS "n" FROM "trend_agent_rollups" WHERE "project_id" = $1 AND "key" = 'turns'
        GROUP BY 1, 2 ORDER BY 1, 2`,
      projectId,
    );
    expect(byAgent).toEqual([
      { agent: "", model: "m", n: 5 },
      { agent: "a", model: "", n: 2 },
      { agent: "a", model: "m", n: 4 },
    ]);
    expect(await rollupDrift(db, { levels: false })).toEqual([]);

    // From here on the triggers keep them: a run deleted goes from the sums.
    await db.prisma.$executeRawUnsafe(`DELETE FROM "runs" WHERE "project_id" = $1 AND "id" = 'r1'`, projectId);
    expect(await rollupDrift(db, { levels: false })).toEqual([]);
    expect(
      await db.prisma.$queryRawUnsafe(
        `SELECT 1 FROM "trend_rollups" WHERE "project_id" = $1 AND "bucket" = '2026-11-20T08:15Z'`,
        projectId,
      ),
    ).toEqual([]);

    // 20261227000200_trend_levels fills the levels (hour, 6 hours, day) from these rows, and its triggers keep them.
    await db.withSql((sql) => applyMigrations(sql, MIGRATIONS_DIR));
    expect(await rollupDrift(db)).toEqual([]);
    const days = await db.prisma.$queryRawUnsafe<{ bucket: string; n: number }[]>(
      `SELECT to_char("bucket" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS "bucket", "n"::int AS "n"
         FROM "trend_rollups" WHERE "project_id" = $1 AND "minutes" = 1440 AND "key" = 'turns' ORDER BY 1`,
      projectId,
    );
    expect(days).toEqual([
      { bucket: "2026-11-20T00:00", n: 2 },
      { bucket: "2026-11-21T00:00", n: 5 },
    ]);
    await db.prisma.$executeRawUnsafe(`DELETE FROM "runs" WHERE "project_id" = $1 AND "id" = 'r3'`, projectId);
    expect(await rollupDrift(db)).toEqual([]);
    expect(await db.withSql((sql) => keysWithoutProject(sql))).toEqual([]);
  }, 120_000);
});

const TREND_EXPERIMENT_ROLLUPS = "20261229000000_trend_experiment_rollups";

describe.each(bareDatabases())(`${TREND_EXPERIMENT_ROLLUPS} on a populated $name database`, (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  }, 180_000);
  afterAll(async () => db?.close());

  it("files the buckets of the runs that name an experiment under it and sums them per arm; runs without one add nothing", async () => {
    await db.withSql((sql) => applyMigrations(sql, migrationsBefore(TREND_EXPERIMENT_ROLLUPS)));
    const projectId = (await db.prisma.project.create({ data: { name: "trend-experiment-migration" } })).id;
    const runs = [
      { id: "e1", experiment: "exp", arm: "control", buckets: { "2026-11-20T08:00Z": { turns: 3 }, "2026-11-20T09:15Z": { turns: 2 } } },
      { id: "e2", experiment: "exp", arm: "urgent", buckets: { "2026-11-20T08:00Z": { turns: 4, "effect.requests.1.0.delivered": 1 } } },
      { id: "e3", experiment: "exp", arm: "urgent", buckets: { "2026-11-20T08:00Z": { turns: 1, "effect.requests.1.0.delivered": 2 } } },
      { id: "n1", experiment: null, arm: null, buckets: { "2026-11-20T08:00Z": { turns: 7 } } },
    ];
    for (const run of runs) {
      await db.prisma.$executeRawUnsafe(
        `INSERT INTO "runs" ("id", "project_id", "run_id", "task", "agent", "experiment_id", "experiment_arm", "event_count")
         VALUES ($1, $2, $1, 't', 'a', $3, $4, 1)`,
        run.id,
        projectId,
        run.experiment,
        run.arm,
      );
      for (const [bucket, counts] of Object.entries(run.buckets)) {
        await db.prisma.$executeRawUnsafe(
          `INSERT INTO "trend_buckets" ("project_id", "run_pk", "bucket", "agent", "model", "copy_version", "policy_version", "counts")
           VALUES ($1, $2, $3::timestamptz, 'a', NULL, 'c', 'p', $4::jsonb)`,
          projectId,
          run.id,
          bucket,
          JSON.stringify(counts),
        );
      }
    }

    await db.withSql((sql) => applyMigrations(sql, MIGRATIONS_DIR));
    const days = await db.prisma.$queryRawUnsafe<{ arm: string; key: string; n: number }[]>(
      `SELECT "arm", "key", "n"::int AS "n" FROM "trend_experiment_rollups"
        WHERE "project_id" = $1 AND "experiment_id" = 'exp' AND "minutes" = 1440 ORDER BY 1, 2`,
      projectId,
    );
    // Summed by hand from the rows above: n1 names no experiment.
    expect(days).toEqual([
      { arm: "control", key: "turns", n: 5 },
      { arm: "urgent", key: "effect.requests.1.0.delivered", n: 3 },
      { arm: "urgent", key: "turns", n: 5 },
    ]);
    expect(await rollupDrift(db)).toEqual([]);
    // From here on the triggers keep them: a run deleted goes from the sums.
    await db.prisma.$executeRawUnsafe(`DELETE FROM "runs" WHERE "project_id" = $1 AND "id" = 'e2'`, projectId);
    expect(await rollupDrift(db)).toEqual([]);
    expect(await db.withSql((sql) => keysWithoutProject(sql))).toEqual([]);
  }, 120_000);
});

/**
 * A run with one bucket at 2026-11-20T08:00Z, stored as a rebuild stores it (runs and trend_buckets as
 * they are from migration 20261229000000_trend_experiment_rollups on: the bucket filed under the run's experiment).
 */
type StoredRun = {
  id: string;
  agent: string | null;
  model?: string | null;
  copy: string;
  policy: string;
  experiment?: string | null;
  arm?: string | null;
  counts: Record<string, number>;
};

async function storeRun(db: Database, projectId: string, run: StoredRun): Promise<void> {
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO "runs" ("id", "project_id", "run_id", "task", "agent", "model", "experiment_id", "experiment_arm", "event_count")
     VALUES ($1, $2, $1, 't', $3, $4, $5, $6, 1)`,
    run.id,
    projectId,
    run.agent,
    run.model ?? null,
    run.experiment ?? null,
    run.arm ?? null,
  );
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO "trend_buckets" ("project_id", "run_pk", "bucket", "agent", "model", "copy_version", "policy_version", "experiment_id", "experiment_arm", "counts")
     VALUES ($1, $2, '2026-11-20T08:00Z', $3, $4, $5, $6, $7, $8, $9::jsonb)`,
    projectId,
    run.id,
    run.agent,
    run.model ?? null,
    run.copy,
    run.policy,
    run.experiment ?? null,
    run.arm ?? null,
    JSON.stringify(run.counts),
  );
}

const WITHOUT_POLICY = "20261230000000_trend_rollups_without_policy";

describe.each(bareDatabases())(`${WITHOUT_POLICY} on a populated $name database`, (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  }, 180_000);
  afterAll(async () => db?.close());

  it("sums the rollups over the policy versions, keeps them per policy version apart, and its triggers keep all three", async () => {
    await db.withSql((sql) => applyMigrations(sql, migrationsBefore(WITHOUT_POLICY)));
    const projectId = (await db.prisma.project.create({ data: { name: "trend-rollups-without-policy" } })).id;
    // Three runs of one agent and copy in one bucket, each with its own policy (limits sized per task); a fourth with another copy.
    // p1 and p2 are in one experiment's arm.
    const runs: StoredRun[] = [
      {
        id: "p1",
        agent: "a",
        copy: "c",
        policy: "p1",
        experiment: "exp",
        arm: "B",
        counts: { turns: 3, "effect.requests.1.0.delivered": 1 },
      },
      {
        id: "p2",
        agent: "a",
        copy: "c",
        policy: "p2",
        experiment: "exp",
        arm: "B",
        counts: { turns: 4, "effect.requests.1.0.delivered": 2 },
      },
      { id: "p3", agent: "b", copy: "c", policy: "p3", counts: { turns: 5 } },
      { id: "p4", agent: "a", copy: "d", policy: "p1", counts: { turns: 1 } },
    ];
    for (const run of runs) await storeRun(db, projectId, run);

    expect(await db.withSql((sql) => applyMigrations(sql, migrationsBefore(WITHOUT_POLICY, true)))).toEqual([WITHOUT_POLICY]);
    const day = (table: string, columns: string) =>
      db.prisma.$queryRawUnsafe<Record<string, string | number>[]>(
        `SELECT ${columns}, "key", "n"::int AS "n" FROM "${table}" WHERE "project_id" = $1 AND "minutes" = 1440 ORDER BY ${columns}, "key"`,
        projectId,
      );
    // Summed by hand from the rows above.
    expect(await day("trend_rollups", `"copy_version"`)).toEqual([
      { copy_version: "c", key: "effect.requests.1.0.delivered", n: 3 },
      { copy_version: "c", key: "turns", n: 12 },
      { copy_version: "d", key: "turns", n: 1 },
    ]);
    expect(await day("trend_agent_rollups", `"agent", "copy_version"`)).toEqual([
      { agent: "a", copy_version: "c", key: "effect.requests.1.0.delivered", n: 3 },
      { agent: "a", copy_version: "c", key: "turns", n: 7 },
      { agent: "a", copy_version: "d", key: "turns", n: 1 },
      { agent: "b", copy_version: "c", key: "turns", n: 5 },
    ]);
    expect(await day("trend_policy_rollups", `"agent", "copy_version", "policy_version"`)).toEqual([
      { agent: "a", copy_version: "c", policy_version: "p1", key: "effect.requests.1.0.delivered", n: 1 },
      { agent: "a", copy_version: "c", policy_version: "p1", key: "turns", n: 3 },
      { agent: "a", copy_version: "c", policy_version: "p2", key: "effect.requests.1.0.delivered", n: 2 },
      { agent: "a", copy_version: "c", policy_version: "p2", key: "turns", n: 4 },
      { agent: "a", copy_version: "d", policy_version: "p1", key: "turns", n: 1 },
      { agent: "b", copy_version: "c", policy_version: "p3", key: "turns", n: 5 },
    ]);
    // The experiment's arm, summed over p1's and p2's policies.
    expect(await day("trend_experiment_rollups", `"experiment_id", "arm"`)).toEqual([
      { experiment_id: "exp", arm: "B", key: "effect.requests.1.0.delivered", n: 3 },
      { experiment_id: "exp", arm: "B", key: "turns", n: 7 },
    ]);
    expect(await rollupDrift(db)).toEqual([]);

    // From here on the triggers keep all three: a bucket updated in place, a run deleted.
    await db.prisma.$executeRawUnsafe(
      `UPDATE "trend_buckets" SET "counts" = '{"turns": 6, "effect.requests.1.0.delivered": 2}'::jsonb WHERE "project_id" = $1 AND "run_pk" = 'p1'`,
      projectId,
    );
    expect(await rollupDrift(db)).toEqual([]);
    await db.prisma.$executeRawUnsafe(`DELETE FROM "runs" WHERE "project_id" = $1 AND "id" = 'p2'`, projectId);
    expect(await rollupDrift(db)).toEqual([]);
    expect(await day("trend_rollups", `"copy_version"`)).toEqual([
      { copy_version: "c", key: "effect.requests.1.0.delivered", n: 2 },
      { copy_version: "c", key: "turns", n: 11 },
      { copy_version: "d", key: "turns", n: 1 },
    ]);
    expect(await db.withSql((sql) => keysWithoutProject(sql))).toEqual([]);
  }, 120_000);
});

const ARM_ROLLUPS = "20261231000000_trend_arm_rollups";

describe.each(bareDatabases())(`${ARM_ROLLUPS} on a populated $name database`, (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  }, 180_000);
  afterAll(async () => db?.close());

  it("sums an experiment's rollups over agents and models per arm and copy, and its triggers keep both tables", async () => {
    await db.withSql((sql) => applyMigrations(sql, migrationsBefore(ARM_ROLLUPS)));
    const projectId = (await db.prisma.project.create({ data: { name: "trend-arm-rollups" } })).id;
    // One arm's runs over two agents and two models (one with none), another arm's, and a run in no experiment.
    const rows: Omit<StoredRun, "policy" | "experiment">[] = [
      { id: "a1", agent: "x", model: "m1", arm: "A", copy: "c", counts: { turns: 3, "effect.requests.1.0.delivered": 1 } },
      { id: "a2", agent: "y", model: "m2", arm: "A", copy: "c", counts: { turns: 4, "effect.requests.1.0.delivered": 2 } },
      { id: "a3", agent: "y", model: null, arm: "A", copy: "d", counts: { turns: 2 } },
      { id: "b1", agent: "x", model: "m1", arm: "B", copy: "c", counts: { turns: 5 } },
      { id: "n1", agent: "x", model: "m1", arm: null, copy: "c", counts: { turns: 7 } },
    ];
    for (const run of rows) await storeRun(db, projectId, { ...run, policy: "p", experiment: run.arm === null ? null : "exp" });

    expect(await db.withSql((sql) => applyMigrations(sql, migrationsBefore(ARM_ROLLUPS, true)))).toEqual([ARM_ROLLUPS]);
    const day = () =>
      db.prisma.$queryRawUnsafe<Record<string, string | number>[]>(
        `SELECT "experiment_id", "arm", "copy_version", "key", "n"::int AS "n" FROM "trend_arm_rollups"
          WHERE "project_id" = $1 AND "minutes" = 1440 ORDER BY 1, 2, 3, 4`,
        projectId,
      );
    // Summed by hand from the rows above: n1 names no experiment.
    expect(await day()).toEqual([
      { experiment_id: "exp", arm: "A", copy_version: "c", key: "effect.requests.1.0.delivered", n: 3 },
      { experiment_id: "exp", arm: "A", copy_version: "c", key: "turns", n: 7 },
      { experiment_id: "exp", arm: "A", copy_version: "d", key: "turns", n: 2 },
      { experiment_id: "exp", arm: "B", copy_version: "c", key: "turns", n: 5 },
    ]);
    expect(await rollupDrift(db)).toEqual([]);
    // The check sees this table: a row off by one is drift.
    await db.prisma.$executeRawUnsafe(
      `UPDATE "trend_arm_rollups" SET "n" = "n" + 1 WHERE "project_id" = $1 AND "key" = 'turns' AND "arm" = 'B'`,
      projectId,
    );
    expect((await rollupDrift(db)).map((d) => d.table)).toEqual([
      "trend_arm_rollups",
      "trend_arm_rollups",
      "trend_arm_rollups",
      "trend_arm_rollups",
    ]);
    await db.prisma.$executeRawUnsafe(
      `UPDATE "trend_arm_rollups" SET "n" = "n" - 1 WHERE "project_id" = $1 AND "key" = 'turns' AND "arm" = 'B'`,
      projectId,
    );

    // From here on the triggers keep both: a bucket updated in place (into the other arm), a run deleted.
    await db.prisma.$executeRawUnsafe(
      `UPDATE "trend_buckets" SET "experiment_arm" = 'B', "counts" = '{"turns": 6}'::jsonb WHERE "project_id" = $1 AND "run_pk" = 'a1'`,
      projectId,
    );
    await db.prisma.$executeRawUnsafe(`UPDATE "runs" SET "experiment_arm" = 'B' WHERE "project_id" = $1 AND "id" = 'a1'`, projectId);
    expect(await rollupDrift(db)).toEqual([]);
    await db.prisma.$executeRawUnsafe(`DELETE FROM "runs" WHERE "project_id" = $1 AND "id" = 'a3'`, projectId);
    expect(await rollupDrift(db)).toEqual([]);
    expect(await day()).toEqual([
      { experiment_id: "exp", arm: "A", copy_version: "c", key: "effect.requests.1.0.delivered", n: 2 },
      { experiment_id: "exp", arm: "A", copy_version: "c", key: "turns", n: 4 },
      { experiment_id: "exp", arm: "B", copy_version: "c", key: "turns", n: 11 },
    ]);
    expect(await db.withSql((sql) => keysWithoutProject(sql))).toEqual([]);
  }, 120_000);
});

const AGENT_COPY_ROLLUPS = "20261231000100_trend_agent_copy_rollups";

describe.each(bareDatabases())(`${AGENT_COPY_ROLLUPS} on a populated $name database`, (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  }, 180_000);
  afterAll(async () => db?.close());

  it("sums the per-agent rollups over models per agent and copy, and the triggers keep all four tables", async () => {
    await db.withSql((sql) => applyMigrations(sql, migrationsBefore(AGENT_COPY_ROLLUPS)));
    const projectId = (await db.prisma.project.create({ data: { name: "trend-agent-copy-rollups" } })).id;
    // One agent's runs over two models (one with none) and two copies; another agent; a run with no agent. Each its own policy.
    const rows: Omit<StoredRun, "policy">[] = [
      { id: "r1", agent: "x", model: "m1", copy: "c", counts: { turns: 3, "effect.requests.1.0.delivered": 1 } },
      { id: "r2", agent: "x", model: "m2", copy: "c", counts: { turns: 4, "effect.requests.1.0.delivered": 2 } },
      { id: "r3", agent: "x", model: null, copy: "d", counts: { turns: 2 } },
      { id: "r4", agent: "y", model: "m1", copy: "c", counts: { turns: 5 } },
      { id: "r5", agent: null, model: "m1", copy: "c", counts: { turns: 1 } },
    ];
    for (const run of rows) await storeRun(db, projectId, { ...run, policy: run.id });

    expect(await db.withSql((sql) => applyMigrations(sql, migrationsBefore(AGENT_COPY_ROLLUPS, true)))).toEqual([AGENT_COPY_ROLLUPS]);
    const day = () =>
      db.prisma.$queryRawUnsafe<Record<string, string | number>[]>(
        `SELECT "agent", "copy_version", "key", "n"::int AS "n" FROM "trend_agent_copy_rollups"
          WHERE "project_id" = $1 AND "minutes" = 1440 ORDER BY 1, 2, 3`,
        projectId,
      );
    // Summed by hand from the rows above ('' for the run with no agent).
    expect(await day()).toEqual([
      { agent: "", copy_version: "c", key: "turns", n: 1 },
      { agent: "x", copy_version: "c", key: "effect.requests.1.0.delivered", n: 3 },
      { agent: "x", copy_version: "c", key: "turns", n: 7 },
      { agent: "x", copy_version: "d", key: "turns", n: 2 },
      { agent: "y", copy_version: "c", key: "turns", n: 5 },
    ]);
    expect(await rollupDrift(db)).toEqual([]);
    // The check sees this table: a row off by one is drift.
    await db.prisma.$executeRawUnsafe(
      `UPDATE "trend_agent_copy_rollups" SET "n" = "n" + 1 WHERE "project_id" = $1 AND "key" = 'turns' AND "agent" = 'y'`,
      projectId,
    );
    expect((await rollupDrift(db)).map((d) => d.table)).toEqual([
      "trend_agent_copy_rollups",
      "trend_agent_copy_rollups",
      "trend_agent_copy_rollups",
      "trend_agent_copy_rollups",
    ]);
    await db.prisma.$executeRawUnsafe(
      `UPDATE "trend_agent_copy_rollups" SET "n" = "n" - 1 WHERE "project_id" = $1 AND "key" = 'turns' AND "agent" = 'y'`,
      projectId,
    );

    // From here on the triggers keep it: a bucket updated in place, a run deleted.
    await db.prisma.$executeRawUnsafe(
      `UPDATE "trend_buckets" SET "counts" = '{"turns": 6}'::jsonb WHERE "project_id" = $1 AND "run_pk" = 'r1'`,
      projectId,
    );
    expect(await rollupDrift(db)).toEqual([]);
    await db.prisma.$executeRawUnsafe(`DELETE FROM "runs" WHERE "project_id" = $1 AND "id" = 'r3'`, projectId);
    expect(await rollupDrift(db)).toEqual([]);
    expect(await day()).toEqual([
      { agent: "", copy_version: "c", key: "turns", n: 1 },
      { agent: "x", copy_version: "c", key: "effect.requests.1.0.delivered", n: 2 },
      { agent: "x", copy_version: "c", key: "turns", n: 10 },
      { agent: "y", copy_version: "c", key: "turns", n: 5 },
    ]);
    expect(await db.withSql((sql) => keysWithoutProject(sql))).toEqual([]);
  }, 120_000);
});
