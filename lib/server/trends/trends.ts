import {
  DEFAULT_TREND_DAYS,
  FINDING_CODES,
  MAX_INSTANT_MS,
  MAX_TREND_DAYS,
  MIN_INSTANT_MS,
  REMINDER_KEYS,
  type TTrendDay,
  type TTrendsQuery,
  type TTrendsResponse,
  type TTrendVersion,
} from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import { copyColumn, policyColumn } from "@/lib/server/db/json-columns";
import { DomainError } from "@/lib/server/errors";
import { copyVersionOf, policyVersionOf } from "@/lib/trends/buckets";
import { EFFECT_KEYS } from "@/lib/trends/effect-keys";

/** One count key's sum over a day of the window, for one copy version. */
export type Count = { day: string; copyVersion: string; key: string; n: number };
/** The days `from`–`to` (both included) of the time zone `tz`. */
export type TrendWindow = { tz: string; from: string; to: string };
export type TrendFilters = {
  agent?: string;
  model?: string;
  copyVersion?: string;
  policyVersion?: string;
  /** Only the runs whose run.started named this experiment (and this arm of it), contract §10. */
  experiment?: string;
  arm?: string;
  /** Only count keys matching one of these LIKE patterns, or only those matching none of them. */
  keys?: { like: readonly string[] } | { notLike: readonly string[] };
};

/**
 * The count keys of contract §10 (delivered vs dropped, fatigue): the effectiveness read asks for them
 * (with the deliveries they are shown beside), the trends read leaves them out.
 */
export { EFFECT_KEYS } from "@/lib/trends/effect-keys";

/** The instants of a window's days in its zone, on the rollups' 15-minute buckets ($1 project, $2 tz, $3 from, $4 to). */
const IN_WINDOW = `r."project_id" = $1 AND r."minutes" = 15 AND r."bucket" >= ($3::date::timestamp AT TIME ZONE $2) AND r."bucket" < (($4::date + 1)::timestamp AT TIME ZONE $2)`;

/** A day of a window: its name in the zone and the instants it starts and ends (epoch ms, end excluded). */
export type WindowDay = {
  day: string;
  start: number;
  end: number;
  /**
   * Whether the 15-minute buckets from the first at or after `start` to the first at or after `end` are
   * exactly those whose zone date is `day` (windowDays checks; not so a day whose clock went back across
   * midnight, such as America/Juneau's 1867-10-18).
   */
  exact: boolean;
};

/** The spans of the rollups' levels (migration 20261227000200_trend_levels), in minutes. */
const DAY = 1440;
const BLOCK = 360;
const HOUR = 60;
const QUARTER = 15;
const MINUTE_MS = 60_000;
const QUARTER_MS = QUARTER * MINUTE_MS;

/** One rollup row's span (`minutes`, its start `ms`) counted `coef` times into a day. */
export type LevelTerm = { minutes: number; ms: number; coef: number };

/**
 * The rollup spans whose signed sum is the instants [start, end) (epoch ms on 15-minute bounds):
 * the UTC days from start's day to end's day, plus the part of end's day before end, minus the part of
 * start's day before start, each such part from the nearest 6-hour bound (or the day less the blocks
 * after it), then the nearest hour, then quarters: at most 2 + 3 + 2 spans each, and terms that cancel
 * dropped. So a zone's day reads a few rows per version × key however its buckets are filled.
 */
export function levelTerms(start: number, end: number): LevelTerm[] {
  const terms = new Map<string, LevelTerm>();
  const add = (minutes: number, ms: number, coef: number) => {
    const id = `${minutes}:${ms}`;
    const term = terms.get(id) ?? { minutes, ms, coef: 0 };
    term.coef += coef;
    terms.set(id, term);
  };
  const dayMs = DAY * MINUTE_MS;
  /** Adds `sign` × the instants from the start of t's UTC day to t. */
  const head = (t: number, sign: number) => {
    const day = Math.floor(t / dayMs) * dayMs;
    const blockMs = BLOCK * MINUTE_MS;
    const blocks = Math.round((t - day) / blockMs); // 0–4
    if (blocks <= 2) for (let i = 0; i < blocks; i++) add(BLOCK, day + i * blockMs, sign);
    else {
      add(DAY, day, sign);
      for (let i = blocks; i < 4; i++) add(BLOCK, day + i * blockMs, -sign);
    }
    let at = day + blocks * blockMs;
    for (const minutes of [HOUR, QUARTER]) {
      const size = minutes * MINUTE_MS;
      const steps = Math.round((t - at) / size);
      for (let i = 0; i < Math.abs(steps); i++) add(minutes, steps > 0 ? at + i * size : at - (i + 1) * size, steps > 0 ? sign : -sign);
      at += steps * size;
    }
  };
  if (end <= start) return [];
  for (let day = Math.floor(start / dayMs) * dayMs; day < Math.floor(end / dayMs) * dayMs; day += dayMs) add(DAY, day, 1);
  head(end, 1);
  head(start, -1);
  return [...terms.values()].filter((t) => t.coef !== 0);
}

/**
 * The window's days in its zone with their bounds (getTrends answers them), and whether each is exact
 * (WindowDay): its first and last buckets' zone date is the day and the UTC offset is the same at both, or
 * else every bucket from 3 hours before it to 3 hours after it has the zone date of the day exactly when it
 * is between its bounds.
 */
export async function windowDays(db: Database, w: TrendWindow): Promise<WindowDay[]> {
  // Epoch milliseconds, not timestamps: a day at either end of the calendar (0001-01-01 east of
  // UTC, 9999-12-31) starts or ends in year 0 or 10000, which the driver cannot read as a Date.
  return db.prisma.$queryRawUnsafe<WindowDay[]>(
    `SELECT to_char(d, 'YYYY-MM-DD') AS "day", (extract(epoch FROM s) * 1000)::float8 AS "start", (extract(epoch FROM e) * 1000)::float8 AS "end",
            CASE WHEN qe <= qs THEN NOT EXISTS (
                   SELECT 1 FROM generate_series(qs - interval '3 hours', qs + interval '3 hours', interval '15 minutes') AS q
                    WHERE date_trunc('day', q AT TIME ZONE $1) = d)
                 WHEN date_trunc('day', qs AT TIME ZONE $1) <> d OR date_trunc('day', (qe - interval '15 minutes') AT TIME ZONE $1) <> d THEN false
                 WHEN (qs AT TIME ZONE $1) - (qs AT TIME ZONE 'UTC')
                    = ((qe - interval '15 minutes') AT TIME ZONE $1) - ((qe - interval '15 minutes') AT TIME ZONE 'UTC') THEN true
                 ELSE NOT EXISTS (
                   SELECT 1 FROM generate_series(qs - interval '3 hours', qe + interval '3 hours', interval '15 minutes') AS q
                    WHERE (date_trunc('day', q AT TIME ZONE $1) = d) <> (q >= qs AND q < qe))
            END AS "exact"
       FROM generate_series($2::date::timestamp, $3::date::timestamp, interval '1 day') AS d,
            LATERAL (SELECT d AT TIME ZONE $1 AS s, (d + interval '1 day') AT TIME ZONE $1 AS e) AS b,
            -- The first bucket at or after each bound (a zone's local mean time, before 1900, is no whole quarter off UTC).
            LATERAL (SELECT date_bin(interval '15 minutes', s - interval '1 microsecond', TIMESTAMPTZ '0001-01-01 00:00:00+00') + interval '15 minutes' AS qs,
                            date_bin(interval '15 minutes', e - interval '1 microsecond', TIMESTAMPTZ '0001-01-01 00:00:00+00') + interval '15 minutes' AS qe) AS q
      ORDER BY d`,
    w.tz,
    w.from,
    w.to,
  );
}

/**
 * The rollup table a read with these filters sums (migrations 20261224000000_trend_rollups,
 * 20261229000000_trend_experiment_rollups, 20261230000000_trend_rollups_without_policy,
 * 20261231000000_trend_arm_rollups and 20261231000100_trend_agent_copy_rollups), the one with the
 * fewest dimensions that has every column asked for, so a read sums rows of only the versions,
 * agents and models it can tell apart: `trend_rollups` (per copy version), or
 * `trend_agent_copy_rollups` (also per agent) when an agent is asked for, or `trend_agent_rollups`
 * (per agent and model) when a model is, or `trend_policy_rollups` (also per policy version) when a
 * policy version is. When an experiment is, only the experiments' runs: `trend_arm_rollups` (per
 * experiment, arm and copy version), or `trend_experiment_rollups` (also per agent and model) when
 * an agent or model is asked for too. A policy version is often one run's own (an agent that sizes
 * its limits per task), so the reads that ask for none never group by it; an experiment and a
 * policy version together are summed from the runs' buckets (countRows).
 */
function rollupTable(f: TrendFilters): { table: string; byAgent: boolean; byPolicy: boolean; byExperiment: boolean } {
  const byAgent = f.agent !== undefined || f.model !== undefined;
  if (f.experiment !== undefined) {
    return { table: byAgent ? `"trend_experiment_rollups"` : `"trend_arm_rollups"`, byAgent, byPolicy: false, byExperiment: true };
  }
  if (f.policyVersion !== undefined) return { table: `"trend_policy_rollups"`, byAgent: true, byPolicy: true, byExperiment: false };
  const table = f.model !== undefined ? `"trend_agent_rollups"` : f.agent !== undefined ? `"trend_agent_copy_rollups"` : `"trend_rollups"`;
  return { table, byAgent, byPolicy: false, byExperiment: false };
}

/** The SQL conditions of the filters asked for, on rollup rows `r`, and their parameters from `$first` on. */
function filtersOf(f: TrendFilters, first: number): { sql: string; params: (string | readonly string[])[] } {
  const { byAgent, byPolicy, byExperiment } = rollupTable(f);
  const asked: [string, string | undefined][] = [
    ["experiment_id", byExperiment ? f.experiment : undefined],
    ["arm", byExperiment ? f.arm : undefined],
    ["agent", byAgent ? f.agent : undefined],
    ["model", byAgent ? f.model : undefined],
    ["copy_version", f.copyVersion],
    ["policy_version", byPolicy ? f.policyVersion : undefined],
  ];
  const used = asked.filter((a): a is [string, string] => a[1] !== undefined);
  const sql = used.map(([column], i) => ` AND r."${column}" = $${first + i}`).join("");
  const params: (string | readonly string[])[] = used.map(([, value]) => value);
  if (f.keys) {
    const like = "like" in f.keys;
    params.push("like" in f.keys ? f.keys.like : f.keys.notLike);
    return { sql: `${sql} AND ${like ? "" : "NOT "}r."key" LIKE ${like ? "ANY" : "ALL"}($${first + used.length}::text[])`, params };
  }
  return { sql, params };
}

/**
 * The signed level terms of each day, for SQL arrays: day names, spans, starts (epoch ms), coefficients;
 * null when a day is not exact (then the read groups the 15-minute buckets by their zone date instead).
 */
function termArrays(days: readonly WindowDay[]): [string[], number[], number[], number[]] | null {
  if (days.some((d) => !d.exact)) return null;
  const arrays: [string[], number[], number[], number[]] = [[], [], [], []];
  for (const d of days) {
    // The buckets from the first at or after the day's start to the first at or after its end.
    for (const t of levelTerms(Math.ceil(d.start / QUARTER_MS) * QUARTER_MS, Math.ceil(d.end / QUARTER_MS) * QUARTER_MS)) {
      arrays[0].push(d.day);
      arrays[1].push(t.minutes);
      arrays[2].push(t.ms);
      arrays[3].push(t.coef);
    }
  }
  return arrays;
}

/**
 * The rows `r` of a rollup table counted into each day of the window, each as the sum `n` of its
 * count key `r."key"` × the term's coefficient (`t."day"` its day), for a query that groups them.
 * Each term is one index lookup (project, span, start, and the filters asked for) of the table's key.
 */
function termRows(table: string, select: string, where: string, firstParam: number): string {
  return `FROM unnest($${firstParam}::text[], $${firstParam + 1}::int[], $${firstParam + 2}::float8[], $${firstParam + 3}::int[]) AS t("day", "minutes", "ms", "coef")
         CROSS JOIN LATERAL (
           SELECT ${select}, r."key", r."n" * t."coef" AS "n" FROM ${table} r
            WHERE r."project_id" = $1 AND r."minutes" = t."minutes" AND r."bucket" = to_timestamp(t."ms" / 1000.0) ${where}
           OFFSET 0) AS r`;
}

/** A query of signed counts (`day`, `copyVersion`, `key`, `n`), ungrouped, and its parameters ($1 the project). */
type CountRows = { sql: string; params: unknown[] };

/**
 * The window's counts before they are summed: each a count key's signed count `n` on a day of the
 * window for a copy version, whose sums per day, copy version and key are the runs' (windowCounts).
 * From the project's trend rollups (migrations 20261224000000_trend_rollups and
 * 20261227000200_trend_levels; which table: rollupTable): each day is summed from a few spans of the
 * rollups' levels (levelTerms), so rows read are the window's days × a few × the copy versions (and
 * the agents and models, or policy versions, only when the filters name them) in them × count keys,
 * however many runs they sum and however many of the day's 15-minute buckets hold some. A day that is
 * not exact (WindowDay) reads the window's 15-minute rows by their zone date instead.
 */
async function countRows(
  db: Database,
  projectId: string,
  w: TrendWindow,
  f: TrendFilters,
  days?: readonly WindowDay[],
): Promise<CountRows> {
  if (f.experiment !== undefined && f.policyVersion !== undefined) return experimentPolicyRows(projectId, w, f);
  const { table } = rollupTable(f);
  const terms = termArrays(days ?? (await windowDays(db, w)));
  if (terms === null) {
    // The 15-minute rows of the window by their zone date, exact for any zone.
    const filters = filtersOf(f, 5);
    return {
      sql: `SELECT to_char(date_trunc('day', r."bucket" AT TIME ZONE $2), 'YYYY-MM-DD') AS "day", r."copy_version" AS "copyVersion", r."key", r."n"
              FROM ${table} r WHERE ${IN_WINDOW} ${filters.sql}`,
      params: [projectId, w.tz, w.from, w.to, ...filters.params],
    };
  }
  const filters = filtersOf(f, 6);
  return {
    sql: `SELECT t."day", r."copyVersion", r."key", r."n" ${termRows(table, `r."copy_version" AS "copyVersion"`, filters.sql, 2)}`,
    params: [projectId, ...terms, ...filters.params],
  };
}

/**
 * Each count key's sum per day of the window and copy version (countRows summed). A day whose rows
 * sum to 0 has none in a 15-minute bucket either (counts are positive), so it is left out.
 */
export async function windowCounts(
  db: Database,
  projectId: string,
  w: TrendWindow,
  f: TrendFilters,
  days?: readonly WindowDay[],
): Promise<Count[]> {
  const rows = await countRows(db, projectId, w, f, days);
  return db.prisma.$queryRawUnsafe<Count[]>(
    `SELECT c."day", c."copyVersion", c."key", sum(c."n")::float8 AS "n" FROM (${rows.sql}) AS c
      GROUP BY 1, 2, 3 HAVING sum(c."n") <> 0`,
    ...rows.params,
  );
}

/**
 * Each count key's sum over the instants [from, to) (epoch ms on 15-minute bounds), every copy version
 * together: an alert rule's window (lib/server/alerts/evaluate.ts). The same rollups and level terms
 * as a day of the trends (levelTerms): a few rows per count key and copy version, however many runs
 * they sum. `f.keys` should name the keys wanted, or every key of the span is summed.
 */
export async function spanTotals(
  db: Database,
  projectId: string,
  span: { from: number; to: number },
  f: TrendFilters,
): Promise<Map<string, number>> {
  const terms = levelTerms(span.from, span.to);
  if (terms.length === 0) return new Map();
  const { table } = rollupTable(f);
  const filters = filtersOf(f, 6);
  const rows = await db.prisma.$queryRawUnsafe<{ key: string; n: number }[]>(
    `SELECT r."key", sum(r."n")::float8 AS "n" ${termRows(table, `r."copy_version"`, filters.sql, 2)} GROUP BY r."key"`,
    projectId,
    terms.map(() => "span"),
    terms.map((t) => t.minutes),
    terms.map((t) => t.ms),
    terms.map((t) => t.coef),
    ...filters.params,
  );
  return new Map(rows.map((row) => [row.key, row.n]));
}

/** The window's effect counts: each key's sum over the window, and each day's sums with effect keys collapsed. */
export type EffectCounts = {
  /** Each count key's sum over the window's days, every copy version together. */
  totals: { key: string; n: number }[];
  /** Each day's sums, every copy version together, `effect.<key>.<stage>.<ctx>.<count>` summed as `effect.<key>.<count>`. */
  days: { day: string; key: string; n: number }[];
};

/**
 * The effectiveness read's sums (contract §10), summed in the database to what its answer shows (one
 * GROUPING SETS pass over countRows): each count key over the whole window (its rows per key, stage
 * and context stage) and each day's per-key totals (its charts over days), not each day × copy version
 * × count key as windowCounts answers. So the rows answered are the keys that hold data plus the
 * window's days × a few dozen names. The count keys are lib/trends/buckets.ts's only, so every
 * `effect.` key is `effect.<key>.<stage>.<ctx>.<count>` (parseEffectKey reads the same form).
 */
export async function windowEffectCounts(
  db: Database,
  projectId: string,
  w: TrendWindow,
  f: TrendFilters,
  days?: readonly WindowDay[],
): Promise<EffectCounts> {
  const rows = await countRows(db, projectId, w, f, days);
  const sums = await db.prisma.$queryRawUnsafe<{ perDay: number; day: string; key: string; name: string; n: number }[]>(
    `SELECT GROUPING(c."key") AS "perDay", c."day", c."key", c."name", sum(c."n") AS "n" FROM (
       SELECT r."day", r."key", r."n"::float8 AS "n",
              CASE WHEN r."key" LIKE 'effect.%' THEN 'effect.' || split_part(r."key", '.', 2) || '.' || split_part(r."key", '.', 5) ELSE r."key" END AS "name"
         FROM (${rows.sql}) AS r) AS c
      GROUP BY GROUPING SETS (("key"), ("day", "name")) HAVING sum(c."n") <> 0`,
    ...rows.params,
  );
  const counts: EffectCounts = { totals: [], days: [] };
  for (const { perDay, day, key, name, n } of sums) {
    if (perDay === 0) counts.totals.push({ key, n });
    else counts.days.push({ day, key: name, n });
  }
  return counts;
}

/**
 * countRows for an experiment and a policy version together, which no rollup keeps: the buckets
 * of the window's runs in that experiment (and arm) with that policy version, by zone day, copy
 * version and count key (an index range of trend_buckets per project and bucket; rows read are
 * those runs' buckets, a narrow set: one experiment's runs of one policy).
 */
function experimentPolicyRows(projectId: string, w: TrendWindow, f: TrendFilters): CountRows {
  const asked: [string, string | undefined][] = [
    ["experiment_id", f.experiment],
    ["experiment_arm", f.arm],
    ["agent", f.agent],
    ["model", f.model],
    ["copy_version", f.copyVersion],
    ["policy_version", f.policyVersion],
  ];
  const used = asked.filter((a): a is [string, string] => a[1] !== undefined);
  const params: (string | readonly string[])[] = used.map(([, value]) => value);
  let sql = used.map(([column], i) => ` AND b."${column}" = $${5 + i}`).join("");
  if (f.keys) {
    const like = "like" in f.keys;
    params.push("like" in f.keys ? f.keys.like : f.keys.notLike);
    sql += ` AND ${like ? "" : "NOT "}c."key" LIKE ${like ? "ANY" : "ALL"}($${5 + used.length}::text[])`;
  }
  return {
    sql: `SELECT to_char(date_trunc('day', b."bucket" AT TIME ZONE $2), 'YYYY-MM-DD') AS "day", b."copy_version" AS "copyVersion",
                 c."key", c."value"::bigint AS "n"
            FROM "trend_buckets" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
           WHERE b."project_id" = $1 AND b."bucket" >= ($3::date::timestamp AT TIME ZONE $2) AND b."bucket" < (($4::date + 1)::timestamp AT TIME ZONE $2)
                 ${sql}`,
    params: [projectId, w.tz, w.from, w.to, ...params],
  };
}

/**
 * The copy and policy versions of the runs with buckets in the window, whatever the filters: those
 * whose count key `turns` sums to more than 0 on a day of the window (trend_policy_rollups, by the
 * levels' terms as in windowCounts: rows of one key per agent, model and version). Every bucket holds
 * a turn (lib/trends/buckets.ts puts a finding without a turn in the last turn's bucket).
 */
export async function windowVersions(
  db: Database,
  projectId: string,
  w: TrendWindow,
  days?: readonly WindowDay[],
): Promise<{ copyVersion: string; policyVersion: string }[]> {
  const terms = termArrays(days ?? (await windowDays(db, w)));
  if (terms === null) {
    return db.prisma.$queryRawUnsafe<{ copyVersion: string; policyVersion: string }[]>(
      `SELECT DISTINCT r."copy_version" AS "copyVersion", r."policy_version" AS "policyVersion"
         FROM "trend_policy_rollups" r WHERE ${IN_WINDOW} AND r."key" = 'turns'`,
      projectId,
      w.tz,
      w.from,
      w.to,
    );
  }
  return db.prisma.$queryRawUnsafe<{ copyVersion: string; policyVersion: string }[]>(
    `SELECT DISTINCT v."copyVersion", v."policyVersion" FROM (
       SELECT r."copyVersion", r."policyVersion"
         ${termRows(`"trend_policy_rollups"`, `r."copy_version" AS "copyVersion", r."policy_version" AS "policyVersion"`, `AND r."key" = 'turns'`, 2)}
        GROUP BY t."day", 1, 2 HAVING sum(r."n") <> 0) AS v`,
    projectId,
    ...terms,
  );
}

/**
 * GET /api/v1/trends: per day of `tz`, the project's trend counts in the window (the sums of its
 * runs' stored buckets, lib/trends/buckets.ts, kept as rollups: windowCounts), by count key. Rates
 * are computed here from counts of one unit each.
 */
export async function getTrends(db: Database, projectId: string, query: TTrendsQuery): Promise<TTrendsResponse> {
  const { tz } = query;
  const { from, to } = await windowOf(db, query);
  const window: TrendWindow = { tz, from, to };
  const filters: TrendFilters = {
    agent: query.agent,
    model: query.model,
    copyVersion: query.copyVersion,
    policyVersion: query.policyVersion,
    experiment: query.experiment,
    arm: query.arm,
    keys: { notLike: EFFECT_KEYS },
  };
  const windowDays$ = zoned(() => windowDays(db, window));
  const [days, counts, versions, savedCopies, savedPolicies] = await Promise.all([
    windowDays$,
    windowDays$.then((days) => zoned(() => windowCounts(db, projectId, window, filters, days))),
    windowDays$.then((days) => zoned(() => windowVersions(db, projectId, window, days))),
    db.prisma.copyVersion.findMany({ where: { projectId }, select: { id: true, name: true, createdAt: true, copy: true } }),
    db.prisma.policyVersion.findMany({ where: { projectId }, select: { id: true, name: true, createdAt: true, policy: true } }),
  ]);

  const copyNames = newestNames(savedCopies.map((v) => ({ ...v, version: copyVersionOf(copyColumn(v)) })));
  const policyNames = newestNames(savedPolicies.map((v) => ({ ...v, version: policyVersionOf(policyColumn(v)) })));
  const defaultCopy = copyVersionOf(undefined);
  const copyLabel = (id: string) =>
    id === defaultCopy
      ? copyNames.has(id)
        ? `Default copy (saved as “${copyNames.get(id)}”)`
        : "Default copy"
      : (copyNames.get(id) ?? `Run's own copy · ${id.slice(0, 8)}`);
  const policyLabel = (id: string) => policyNames.get(id) ?? `Run's own policy · ${id.slice(0, 8)}`;

  const byDay = new Map<string, Count[]>();
  for (const count of counts) byDay.set(count.day, [...(byDay.get(count.day) ?? []), count]);
  return {
    tz,
    from,
    to,
    days: days.map((d) => trendDay(d.day, d.start, d.end, byDay.get(d.day) ?? [])),
    copyVersions: labelled(new Set(versions.map((v) => v.copyVersion)), copyLabel),
    policyVersions: labelled(new Set(versions.map((v) => v.policyVersion)), policyLabel),
  };
}

/** One day's answer from its summed counts (each count key of one unit; rates computed, never summed). */
/**
 * A day's bounds as ISO instants, clamped to the instants an event can have (contract: telemetry,
 * 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z): only the calendar's first and last days move.
 */
function dayInstant(ms: number): string {
  return new Date(Math.min(Math.max(ms, MIN_INSTANT_MS), MAX_INSTANT_MS)).toISOString();
}

function trendDay(day: string, start: number, end: number, counts: readonly Count[]): TTrendDay {
  const total = new Map<string, number>();
  const follow = new Map<string, { delivered: number; followed: number }>();
  for (const { key, n, copyVersion } of counts) {
    total.set(key, (total.get(key) ?? 0) + n);
    const match = /^followUp\.[a-z]+\.(delivered|followed)$/.exec(key);
    if (match) {
      const f = follow.get(copyVersion) ?? { delivered: 0, followed: 0 };
      f[match[1] as "delivered" | "followed"] += n;
      follow.set(copyVersion, f);
    }
  }
  const n = (key: string) => total.get(key) ?? 0;
  const turns = n("turns");
  return {
    day,
    start: dayInstant(start),
    end: dayInstant(end),
    turns,
    keys: REMINDER_KEYS.map((key) => {
      const candidates = n(`reminders.${key}.candidates`);
      const dropped = n(`reminders.${key}.dropped`);
      return {
        key,
        candidates,
        delivered: n(`reminders.${key}.delivered`),
        dropped,
        dropRate: candidates === 0 ? null : dropped / candidates,
      };
    }),
    findings: FINDING_CODES.filter((code) => n(`findings.${code}`) > 0).map((code) => ({
      code,
      count: n(`findings.${code}`),
      per1000Turns: turns === 0 ? null : (n(`findings.${code}`) * 1000) / turns,
    })),
    reviewerViolations: n("reviewerViolations"),
    followUp: [...follow]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([copyVersion, f]) => ({ copyVersion, ...f, rate: f.delivered === 0 ? null : f.followed / f.delivered })),
  };
}

/** The window's days: as asked, else ending today in `tz` and DEFAULT_TREND_DAYS long. */
export async function windowOf(db: Database, query: Pick<TTrendsQuery, "tz" | "from" | "to">): Promise<{ from: string; to: string }> {
  if (query.from && query.to) return { from: query.from, to: query.to };
  const [today] = await zoned(() =>
    db.prisma.$queryRawUnsafe<{ day: string }[]>(`SELECT to_char((now() AT TIME ZONE $1)::date, 'YYYY-MM-DD') AS "day"`, query.tz),
  );
  const shift = (day: string, days: number) => new Date(Date.parse(day) + days * 86_400_000).toISOString().slice(0, 10);
  const to = query.to ?? (query.from ? minDay(shift(query.from, DEFAULT_TREND_DAYS - 1), today.day) : today.day);
  const from = query.from ?? shift(to, -(DEFAULT_TREND_DAYS - 1));
  if (to < from) throw new DomainError("invalid", `query.from: expected a day on or before ${to}, got ${from}`, "from");
  if ((Date.parse(to) - Date.parse(from)) / 86_400_000 + 1 > MAX_TREND_DAYS) {
    throw new DomainError("invalid", `query.from: expected at most ${MAX_TREND_DAYS} days before ${to}, got ${from}`, "from");
  }
  return { from, to };
}

function minDay(a: string, b: string): string {
  return a < b ? a : b;
}

/** A zone the runtime knows but the database does not is the caller's bad `tz`, not a fault. */
export async function zoned<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (/time zone .* not recognized/i.test(error instanceof Error ? error.message : String(error))) {
      throw new DomainError("invalid", "query.tz: expected an IANA time zone the database knows, such as Europe/Paris or UTC", "tz");
    }
    throw error;
  }
}

/** Each version id's name: the newest saved version with it (then the greater id). */
function newestNames(saved: readonly { id: string; name: string; createdAt: Date; version: string }[]): Map<string, string> {
  const newest = new Map<string, { id: string; name: string; createdAt: Date }>();
  for (const v of saved) {
    const known = newest.get(v.version);
    if (!known || v.createdAt > known.createdAt || (+v.createdAt === +known.createdAt && v.id > known.id)) newest.set(v.version, v);
  }
  return new Map([...newest].map(([version, v]) => [version, v.name]));
}

function labelled(ids: ReadonlySet<string>, label: (id: string) => string): TTrendVersion[] {
  return [...ids].map((id) => ({ id, label: label(id) })).sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}
