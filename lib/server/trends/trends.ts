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

/** One count key's sum over a day of the window, for one copy version. */
export type Count = { day: string; copyVersion: string; key: string; n: number };
/** The days `from`–`to` (both included) of the time zone `tz`. */
export type TrendWindow = { tz: string; from: string; to: string };
export type TrendFilters = { agent?: string; model?: string; copyVersion?: string; policyVersion?: string };

/** The instants of a window's days in its zone, on the rollups' buckets ($1 project, $2 tz, $3 from, $4 to). */
const IN_WINDOW = `r."project_id" = $1 AND r."bucket" >= ($3::date::timestamp AT TIME ZONE $2) AND r."bucket" < (($4::date + 1)::timestamp AT TIME ZONE $2)`;

/**
 * Each count key's sum per day of the window and copy version, from the project's trend rollups
 * (migration 20261224000000_trend_rollups): `trend_rollups` (per copy and policy version) unless an
 * agent or model is asked for, then `trend_agent_rollups` (also per agent and model). Rows read: the
 * window's buckets × the versions (and agents and models) in them × count keys, however many runs
 * they sum. The day of a bucket is `date_trunc('day', bucket AT TIME ZONE tz)`, exact because
 * buckets are 15 minutes.
 */
export async function windowCounts(db: Database, projectId: string, w: TrendWindow, f: TrendFilters): Promise<Count[]> {
  const byAgent = f.agent !== undefined || f.model !== undefined;
  const versions = `($5::text IS NULL OR r."copy_version" = $5) AND ($6::text IS NULL OR r."policy_version" = $6)`;
  return db.prisma.$queryRawUnsafe<Count[]>(
    `SELECT to_char(date_trunc('day', r."bucket" AT TIME ZONE $2), 'YYYY-MM-DD') AS "day", r."copy_version" AS "copyVersion",
            r."key", sum(r."n")::float8 AS "n"
       FROM ${byAgent ? `"trend_agent_rollups"` : `"trend_rollups"`} r
      WHERE ${IN_WINDOW} AND ${versions}
            ${byAgent ? `AND ($7::text IS NULL OR r."agent" = $7) AND ($8::text IS NULL OR r."model" = $8)` : ""}
      GROUP BY 1, 2, 3`,
    projectId,
    w.tz,
    w.from,
    w.to,
    f.copyVersion ?? null,
    f.policyVersion ?? null,
    ...(byAgent ? [f.agent ?? null, f.model ?? null] : []),
  );
}

/**
 * The copy and policy versions of the runs with buckets in the window, whatever the filters: the
 * rollups (per copy and policy version) of count key `turns`. Every bucket holds a turn
 * (lib/trends/buckets.ts puts a finding without a turn in the last turn's bucket).
 */
export async function windowVersions(
  db: Database,
  projectId: string,
  w: TrendWindow,
): Promise<{ copyVersion: string; policyVersion: string }[]> {
  return db.prisma.$queryRawUnsafe<{ copyVersion: string; policyVersion: string }[]>(
    `SELECT DISTINCT r."copy_version" AS "copyVersion", r."policy_version" AS "policyVersion"
       FROM "trend_rollups" r WHERE ${IN_WINDOW} AND r."key" = 'turns'`,
    projectId,
    w.tz,
    w.from,
    w.to,
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
  };
  const [days, counts, versions, savedCopies, savedPolicies] = await Promise.all([
    zoned(() =>
      // Epoch milliseconds, not timestamps: a day at either end of the calendar (0001-01-01 east of
      // UTC, 9999-12-31) starts or ends in year 0 or 10000, which the driver cannot read as a Date.
      db.prisma.$queryRawUnsafe<{ day: string; start: number; end: number }[]>(
        `SELECT to_char(d, 'YYYY-MM-DD') AS "day",
                (extract(epoch FROM (d AT TIME ZONE $1)) * 1000)::float8 AS "start",
                (extract(epoch FROM ((d + interval '1 day') AT TIME ZONE $1)) * 1000)::float8 AS "end"
           FROM generate_series($2::date::timestamp, $3::date::timestamp, interval '1 day') AS d ORDER BY d`,
        tz,
        from,
        to,
      ),
    ),
    zoned(() => windowCounts(db, projectId, window, filters)),
    zoned(() => windowVersions(db, projectId, window)),
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
async function windowOf(db: Database, query: TTrendsQuery): Promise<{ from: string; to: string }> {
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
async function zoned<T>(read: () => Promise<T>): Promise<T> {
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
