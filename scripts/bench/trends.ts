/**
 * The trends read (GET /api/v1/trends, lib/server/trends/trends.ts) for a fixed 14-day window: with
 * N runs' buckets in the window, then with 10×N more runs whose buckets are all outside it (and 10
 * more projects of N runs each in the window). Its cost should follow the window, not all that is
 * stored: the report is the ratio of the two medians, measured in one run (no test asserts a time).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { authenticate, createKey } from "@/lib/server/auth/keys";
import { openDatabase, type Database } from "@/lib/server/db";
import { getTrends } from "@/lib/server/trends/trends";
import { collectGarbage, fmt, median, table, type BenchContext, type BenchSection } from "./common";

/** Runs in the window; each has a bucket every 4 hours of the window's 14 days (84 buckets). */
const N = 200;
const FROM = "2026-11-16";
const TO = "2026-11-29";

export function trendsSection(): BenchSection {
  return {
    name: "trends",
    description: `the trends read of a 14-day window: ${N} runs, then 10× more runs outside it and 10 more projects`,
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
});

/** `runs` runs of a project (named `prefix-i`), each with a bucket every 4 hours from `start` for `days` days. */
async function addRuns(db: Database, projectId: string, prefix: string, runs: number, start: string, days: number): Promise<void> {
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO "runs" ("id", "project_id", "run_id", "task", "agent", "model", "event_count")
     SELECT $2 || i, $1, $2 || i, 'bench', 'agent-' || (i % 3), 'model', 1 FROM generate_series(1, $3) AS i`,
    projectId,
    prefix,
    runs,
  );
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO "trend_buckets" ("project_id", "run_pk", "bucket", "agent", "model", "copy_version", "policy_version", "counts")
     SELECT $1, $2 || i, $4::timestamptz + (h * interval '4 hours') + (i % 16) * interval '15 minutes', 'agent-' || (i % 3), 'model',
            lpad(to_hex(i % 4), 28, '0'), lpad('a', 28, '0'), $6::jsonb
       FROM generate_series(1, $3) AS i, generate_series(0, $5 * 6 - 1) AS h`,
    projectId,
    prefix,
    runs,
    start,
    days,
    COUNTS,
  );
}

async function run(ctx: BenchContext): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "cuescope-bench-trends-"));
  const db = await openDatabase({ dataDir: join(dir, "data"), url: "" });
  try {
    const { projectId } = await authenticate(db, `Bearer ${(await createKey(db, "bench-trends")).secret}`);
    ctx.progress(`trends: ${N} runs in the window ...`);
    await addRuns(db, projectId, "in-", N, `${FROM}T00:00:00Z`, 14);
    const query = { tz: "Europe/Paris", from: FROM, to: TO };
    const measure = async (what: string) => {
      await db.prisma.$executeRawUnsafe(`ANALYZE "trend_buckets"`);
      await getTrends(db, projectId, query); // warm-up
      collectGarbage();
      const times: number[] = [];
      for (let r = 0; r < ctx.repeats; r++) {
        ctx.progress(`trends: ${what}, repetition ${r + 1}/${ctx.repeats}`);
        const started = process.hrtime.bigint();
        await getTrends(db, projectId, query);
        times.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
      const [{ n }] = await db.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "trend_buckets"`);
      return { what, buckets: n, ms: median(times) };
    };
    const small = await measure(`${N} runs`);
    ctx.progress(`trends: ${10 * N} more runs outside the window, 10 more projects ...`);
    // 10×N runs of the same project, all of their buckets in 14 days of October, before the window.
    await addRuns(db, projectId, "old-", 10 * N, "2026-10-01T00:00:00Z", 14);
    for (let p = 0; p < 10; p++) {
      const other = (await authenticate(db, `Bearer ${(await createKey(db, `bench-trends-${p}`)).secret}`)).projectId;
      await addRuns(db, other, `p${p}-`, N, `${FROM}T00:00:00Z`, 14);
    }
    const large = await measure(`+${10 * N} runs outside, +10 projects`);
    ctx.print(
      table(
        ["stored", "buckets stored", "median ms (14 days, Europe/Paris)"],
        [small, large].map((m) => [m.what, fmt.int(m.buckets), fmt.ms(m.ms)]),
      ),
    );
    ctx.print(
      `ratio: ${(large.ms / small.ms).toFixed(2)}× for ${(large.buckets / small.buckets).toFixed(0)}× the buckets stored (flat is ~1×)`,
    );
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
