import type { Database } from "@/lib/server/db";
import type { Count, TrendFilters, TrendWindow } from "@/lib/server/trends/trends";

/** A rollup row that is not the sum of the run buckets it groups: what is stored, and the sum. */
export interface RollupDrift {
  table: string;
  projectId: string;
  bucket: string;
  key: string;
  stored: number | null;
  summed: number | null;
}

/** The spans of the rollups' levels, in minutes (migration 20261227000200_trend_levels). */
const LEVELS = [15, 60, 360, 1440];

/**
 * Every row of trend_rollups, trend_agent_rollups, trend_policy_rollups, trend_agent_copy_rollups,
 * trend_experiment_rollups and trend_arm_rollups (the runs with an experiment; each table once its
 * migration made it) that differs from the sum, computed again from trend_buckets, of the buckets
 * it groups (migration 20261224000000_trend_rollups), at each level (20261227000200_trend_levels:
 * the 15-minute bucket, the UTC hour, 6-hour block and day the bucket is in, by epoch arithmetic rather than the migration's date_bin), and every such sum with no row; a
 * row summing to 0 should not exist. Empty when the rollups are exact. `levels: false`: the two
 * tables as migration 20261224000000_trend_rollups made them (no minutes column; both per policy
 * version, which 20261230000000_trend_rollups_without_policy moved to trend_policy_rollups).
 */
export async function rollupDrift(db: Database, { levels = true }: { levels?: boolean } = {}): Promise<RollupDrift[]> {
  const drift = async (table: string, dims: string[], dimsOfBucket: string[], where = "") => {
    const keys = ["project_id", ...(levels ? ["minutes"] : []), "bucket", ...dims, "key"].map((c) => `"${c}"`);
    const bucketOf = levels ? `to_timestamp(floor(extract(epoch FROM b."bucket") / (l."m" * 60)) * l."m" * 60)` : `b."bucket"`;
    return db.prisma.$queryRawUnsafe<RollupDrift[]>(
      `WITH summed AS (
         SELECT b."project_id" AS "project_id", ${levels ? `l."m"::smallint AS "minutes",` : ""} ${bucketOf} AS "bucket",
                ${dims.map((d, i) => `${dimsOfBucket[i]} AS "${d}"`).join(", ")},
                c."key" AS "key", sum(c."value"::bigint) AS "n"
           FROM "trend_buckets" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
                ${levels ? `CROSS JOIN unnest(ARRAY[${LEVELS.join(", ")}]) AS l("m")` : ""}
          ${where}
          GROUP BY ${keys.map((_, i) => i + 1).join(", ")})
       SELECT $1 AS "table", coalesce(r."project_id", s."project_id") AS "projectId",
              ${levels ? `coalesce(r."minutes", s."minutes") || ' min ' || ` : ""}to_char(coalesce(r."bucket", s."bucket") AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS "bucket",
              coalesce(r."key", s."key") AS "key", r."n"::float8 AS "stored", s."n"::float8 AS "summed"
         FROM "${table}" r FULL JOIN summed s ON (${keys.map((k) => `r.${k}`).join(", ")}) = (${keys.map((k) => `s.${k}`).join(", ")})
        WHERE r."n" IS DISTINCT FROM s."n" OR s."n" = 0
        ORDER BY 2, 3, 4`,
      table,
    );
  };
  const agentDims = ["agent", "model", "copy_version"];
  const agentOfBucket = [`coalesce(b."agent", '')`, `coalesce(b."model", '')`, `b."copy_version"`];
  if (!levels) {
    return [
      ...(await drift("trend_rollups", ["copy_version", "policy_version"], [`b."copy_version"`, `b."policy_version"`])),
      ...(await drift("trend_agent_rollups", [...agentDims, "policy_version"], [...agentOfBucket, `b."policy_version"`])),
    ];
  }
  return [
    ...(await drift("trend_rollups", ["copy_version"], [`b."copy_version"`])),
    ...(await drift("trend_agent_rollups", agentDims, agentOfBucket)),
    ...(await drift("trend_policy_rollups", [...agentDims, "policy_version"], [...agentOfBucket, `b."policy_version"`])),
    ...(await driftOnceMade(db, drift, "trend_agent_copy_rollups", ["agent", "copy_version"], [agentOfBucket[0], agentOfBucket[2]])),
    // Only the runs that name an experiment (migration 20261229000000_trend_experiment_rollups), with
    // their stored experiment and arm compared against the run's own.
    ...(await experimentDrift(db, drift)),
  ];
}

type Drift = (table: string, dims: string[], dimsOfBucket: string[], where?: string) => Promise<RollupDrift[]>;

/**
 * trend_experiment_rollups and trend_arm_rollups against the buckets of the runs
 * with an experiment, and buckets filed under another experiment than their run's.
 */
async function experimentDrift(db: Database, drift: Drift): Promise<RollupDrift[]> {
  const misfiled = await db.prisma.$queryRawUnsafe<RollupDrift[]>(
    `SELECT 'trend_buckets' AS "table", b."project_id" AS "projectId", to_char(b."bucket" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS "bucket",
            'experiment ' || coalesce(b."experiment_id", '-') || '/' || coalesce(b."experiment_arm", '-') || ' of run ' || b."run_pk" AS "key",
            NULL::float8 AS "stored", NULL::float8 AS "summed"
       FROM "trend_buckets" b JOIN "runs" r ON r."project_id" = b."project_id" AND r."id" = b."run_pk"
      WHERE (b."experiment_id", coalesce(b."experiment_arm", '')) IS DISTINCT FROM (r."experiment_id", coalesce(r."experiment_arm", ''))
        AND NOT (b."experiment_id" IS NULL AND r."experiment_id" IS NULL)`,
  );
  return [
    ...misfiled,
    ...(await drift(
      "trend_experiment_rollups",
      ["experiment_id", "arm", "agent", "model", "copy_version"],
      [`b."experiment_id"`, `coalesce(b."experiment_arm", '')`, `coalesce(b."agent", '')`, `coalesce(b."model", '')`, `b."copy_version"`],
      `WHERE b."experiment_id" IS NOT NULL`,
    )),
    ...(await driftOnceMade(
      db,
      drift,
      "trend_arm_rollups",
      ["experiment_id", "arm", "copy_version"],
      [`b."experiment_id"`, `coalesce(b."experiment_arm", '')`, `b."copy_version"`],
      `WHERE b."experiment_id" IS NOT NULL`,
    )),
  ];
}

/** `drift` of a table a later migration makes: none while it does not exist yet (in the tests of earlier migrations). */
async function driftOnceMade(db: Database, drift: Drift, ...args: Parameters<Drift>): Promise<RollupDrift[]> {
  const [{ made }] = await db.prisma.$queryRawUnsafe<{ made: boolean }[]>(`SELECT to_regclass($1) IS NOT NULL AS "made"`, `"${args[0]}"`);
  return made ? drift(...args) : [];
}

/**
 * The counts as the trends read computed them before the rollups: every run's buckets in the window,
 * each count key of each bucket summed (the query of lib/server/trends/trends.ts before migration
 * 20261224000000_trend_rollups), an independent computation to compare the rollup read with.
 */
export async function perRunCounts(db: Database, projectId: string, w: TrendWindow, f: TrendFilters): Promise<Count[]> {
  return db.prisma.$queryRawUnsafe<Count[]>(
    `SELECT to_char(date_trunc('day', b."bucket" AT TIME ZONE $2), 'YYYY-MM-DD') AS "day", b."copy_version" AS "copyVersion",
            c."key", sum(c."value"::bigint)::float8 AS "n"
       FROM "trend_buckets" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
      WHERE b."project_id" = $1 AND b."bucket" >= ($3::date::timestamp AT TIME ZONE $2) AND b."bucket" < (($4::date + 1)::timestamp AT TIME ZONE $2)
        AND ($5::text IS NULL OR b."agent" = $5) AND ($6::text IS NULL OR b."model" = $6)
        AND ($7::text IS NULL OR b."copy_version" = $7) AND ($8::text IS NULL OR b."policy_version" = $8)
        AND ($9::text IS NULL OR b."experiment_id" = $9) AND ($10::text IS NULL OR b."experiment_arm" = $10)
      GROUP BY 1, 2, 3`,
    projectId,
    w.tz,
    w.from,
    w.to,
    f.agent ?? null,
    f.model ?? null,
    f.copyVersion ?? null,
    f.policyVersion ?? null,
    f.experiment ?? null,
    f.experiment === undefined ? null : (f.arm ?? null),
  );
}

/** The versions as the trends read found them before the rollups: every run bucket in the window. */
export async function perRunVersions(db: Database, projectId: string, w: TrendWindow) {
  return db.prisma.$queryRawUnsafe<{ copyVersion: string; policyVersion: string }[]>(
    `SELECT DISTINCT b."copy_version" AS "copyVersion", b."policy_version" AS "policyVersion" FROM "trend_buckets" b
      WHERE b."project_id" = $1 AND b."bucket" >= ($3::date::timestamp AT TIME ZONE $2) AND b."bucket" < (($4::date + 1)::timestamp AT TIME ZONE $2)`,
    projectId,
    w.tz,
    w.from,
    w.to,
  );
}
