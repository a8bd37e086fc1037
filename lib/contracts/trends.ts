import { z } from "zod";
import { FINDING_CODES } from "./decisions";
import { ZNameParam, showParam, zTextParam } from "./params";
import { REMINDER_KEYS } from "./reminders";

/** The longest window the trends answer for, in days. */
export const MAX_TREND_DAYS = 366;

/** The window the trends show when none is asked for: the last 14 days, today included. */
export const DEFAULT_TREND_DAYS = 14;

/** Whether `zone` is an IANA time zone this runtime knows (or UTC). */
export function isTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone (`Europe/Paris`, `Asia/Kolkata`, `UTC`). */
export const ZTimeZoneParam = z
  .string({ error: (iss) => `expected an IANA time zone such as Europe/Paris or UTC, got ${showParam(iss.input)}` })
  .check((ctx) => {
    if (!isTimeZone(ctx.value)) {
      ctx.issues.push({
        code: "custom",
        input: ctx.value,
        message: `expected an IANA time zone such as Europe/Paris or UTC, got ${showParam(ctx.value)}`,
      });
    }
  });

/** A calendar day, `YYYY-MM-DD`, in the trends' time zone. */
export const ZDayParam = z.string({ error: (iss) => `expected a day as YYYY-MM-DD, got ${showParam(iss.input)}` }).check((ctx) => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(ctx.value);
  const ok =
    match !== null &&
    Number(match[1]) >= 1 &&
    (() => {
      const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
      return date.getUTCMonth() === Number(match[2]) - 1 && date.getUTCDate() === Number(match[3]);
    })();
  if (!ok) ctx.issues.push({ code: "custom", input: ctx.value, message: `expected a day as YYYY-MM-DD, got ${showParam(ctx.value)}` });
});

/** A copy or policy version as the trends name it: the fingerprint of the resolved copy or of the policy. */
export const ZTrendVersionParam = z
  .string({ error: (iss) => `expected a version id of 28 hex digits, got ${showParam(iss.input)}` })
  .regex(/^[0-9a-f]{28}$/, { error: (iss) => `expected a version id of 28 hex digits, got ${showParam(iss.input)}` });

/**
 * Query of `GET /api/v1/trends`: days `from`–`to` (both included) in the time zone `tz`; without
 * them, the last 14 days (today in `tz` included). Filters by the runs' agent, model, copy and policy version.
 */
export const ZTrendsQuery = z
  .object({
    tz: ZTimeZoneParam.default("UTC"),
    from: ZDayParam.optional(),
    to: ZDayParam.optional(),
    agent: ZNameParam.optional(),
    model: ZNameParam.optional(),
    copyVersion: ZTrendVersionParam.optional(),
    policyVersion: ZTrendVersionParam.optional(),
    /** Only runs whose run.started named this experiment (its id; contract §10). */
    experiment: zTextParam({ max: 200, what: "an experiment id of 1-200 characters" }).optional(),
    /** Only runs whose run.started named this arm of `experiment`. */
    arm: zTextParam({ max: 200, what: "an arm's name of 1-200 characters" }).optional(),
  })
  .check((ctx) => {
    const { experiment, arm } = ctx.value;
    if (arm !== undefined && experiment === undefined)
      ctx.issues.push({ code: "custom", input: arm, path: ["arm"], message: "expected experiment with arm: an arm is an experiment's" });
    checkWindow(ctx);
  });

/** A window of days as the trends take it: `to` on or after `from`, at most MAX_TREND_DAYS days. */
function checkWindow(ctx: z.core.ParsePayload<{ from?: string; to?: string }>): void {
  const { from, to } = ctx.value;
  if (from === undefined || to === undefined) return;
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
  if (days < 1)
    ctx.issues.push({ code: "custom", input: to, path: ["to"], message: `expected a day on or after from (${from}), got ${to}` });
  else if (days > MAX_TREND_DAYS)
    ctx.issues.push({
      code: "custom",
      input: to,
      path: ["to"],
      message: `expected at most ${MAX_TREND_DAYS} days from ${from}, got ${days}`,
    });
}

/** A window of days and its time zone alone (the review trends and export). */
export const ZTrendWindow = z
  .object({ tz: ZTimeZoneParam.default("UTC"), from: ZDayParam.optional(), to: ZDayParam.optional() })
  .check(checkWindow);

/** One reminder key on one day: reminders decided, delivered and dropped, and the drop rate (dropped / candidates). */
export const ZTrendKeyDay = z.object({
  key: z.enum(REMINDER_KEYS),
  candidates: z.number(),
  delivered: z.number(),
  dropped: z.number(),
  /** dropped / candidates; null when there was no candidate. */
  dropRate: z.number().nullable(),
});

/** One copy version on one day: contract §8's follow-up, association not effect. */
export const ZTrendFollowUp = z.object({
  copyVersion: z.string(),
  /** Delivered reminders that are followed up (reminders). */
  delivered: z.number(),
  /** Of those, the ones followed (reminders). */
  followed: z.number(),
  /** followed / delivered; null when none was delivered. */
  rate: z.number().nullable(),
});

export const ZTrendDay = z.object({
  /** The day, YYYY-MM-DD, in the answer's time zone. */
  day: z.string(),
  /** The instants the day starts and ends (the next day's start) in that zone: a runs-list window. */
  start: z.string(),
  end: z.string(),
  /** Rebuilt turns whose time falls in the day (turns). */
  turns: z.number(),
  keys: z.array(ZTrendKeyDay),
  /** Findings by code (findings), and per 1,000 turns of the day (null without turns). */
  findings: z.array(z.object({ code: z.enum(FINDING_CODES), count: z.number(), per1000Turns: z.number().nullable() })),
  /** Reviewer findings (contract §7's Reviewer codes) on the day (findings). */
  reviewerViolations: z.number(),
  followUp: z.array(ZTrendFollowUp),
});

export const ZTrendVersion = z.object({ id: z.string(), label: z.string() });

/** `GET /api/v1/trends`: one entry per day of the window, every day listed (days without turns count zero). */
export const ZTrendsResponse = z.object({
  tz: z.string(),
  from: z.string(),
  to: z.string(),
  days: z.array(ZTrendDay),
  /** The copy and policy versions of the runs with buckets in the window (whatever the version filters), labelled. */
  copyVersions: z.array(ZTrendVersion),
  policyVersions: z.array(ZTrendVersion),
});

export type TTrendsQuery = z.infer<typeof ZTrendsQuery>;
export type TTrendDay = z.infer<typeof ZTrendDay>;
export type TTrendKeyDay = z.infer<typeof ZTrendKeyDay>;
export type TTrendVersion = z.infer<typeof ZTrendVersion>;
export type TTrendsResponse = z.infer<typeof ZTrendsResponse>;
