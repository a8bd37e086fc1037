import type { Database } from "@/lib/server/db";

/** A rollup row that is not the sum of the run buckets it groups: what is stored, and the sum. */
export interface RollupDrift {
  projectId: string;
  level: number;
  bucket: string;
  key: string;
  stored: number | null;
  summed: number | null;
}

/**
 * Every trend_rollups row that differs from the sum, computed again from trend_buckets, of the
 * buckets it groups (migration 20261224000000_trend_rollups), and every such sum with no row; a
 * row summing to 0 should not exist. Empty when the rollups are exact.
 */
export async function rollupDrift(db: Database): Promise<RollupDrift[]> {
  return db.prisma.$queryRawUnsafe<RollupDrift[]>(
    `WITH summed AS (
       SELECT b."project_id", l."level", b."bucket", b."copy_version", b."policy_version",
              CASE WHEN l."level" = 1 THEN coalesce(b."agent", '') ELSE '' END AS "agent",
              CASE WHEN l."level" = 1 THEN coalesce(b."model", '') ELSE '' END AS "model",
              c."key", sum(c."value"::bigint) AS "n"
         FROM "trend_buckets" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value") CROSS JOIN (VALUES (0), (1)) AS l("level")
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8)
     SELECT coalesce(r."project_id", s."project_id") AS "projectId", coalesce(r."level", s."level")::int AS "level",
            to_char(coalesce(r."bucket", s."bucket") AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS "bucket",
            coalesce(r."key", s."key") AS "key", r."n"::float8 AS "stored", s."n"::float8 AS "summed"
       FROM "trend_rollups" r
       FULL JOIN summed s
         ON (r."project_id", r."level", r."bucket", r."copy_version", r."policy_version", r."agent", r."model", r."key")
          = (s."project_id", s."level", s."bucket", s."copy_version", s."policy_version", s."agent", s."model", s."key")
      WHERE r."n" IS DISTINCT FROM s."n" OR s."n" = 0
      ORDER BY 1, 2, 3, 4`,
  );
}
