import { z } from "zod";
import { FINDING_CODES } from "./decisions";
import { showParam, ZCursorParam, ZRecordIdParam, zIntParam } from "./params";
import { REMINDER_KEYS } from "./reminders";

/**
 * Alerts (docs/alerts.md): rules an admin writes over what Cuescope already stores — the trend
 * rollups and the runs' list figures — evaluated every minute by a job of the durable queue. A rule
 * fires once when its condition becomes true, and not again until an evaluation finds it false.
 */

/** The meters whose stage a rule can watch (contract R2), each in its own unit. */
export const ALERT_METERS = ["requests", "time", "context", "edits"] as const;
export type TAlertMeter = (typeof ALERT_METERS)[number];

/**
 * The meters whose projected limit a `runs_out` rule can watch (docs/projection.md): the ones that
 * end a run when they run out. Context is left out: a compaction brings it down again.
 */
export const RUNS_OUT_METERS = ["requests", "time"] as const;
export type TRunsOutMeter = (typeof RUNS_OUT_METERS)[number];
/** The most turns ahead a `runs_out` rule can look. */
export const MAX_RUNS_OUT_TURNS = 100_000;

/**
 * How far back a windowed rule looks, in minutes: the rollups' 15-minute buckets, the current one
 * included (docs/alerts.md#windows).
 */
export const ALERT_WINDOWS = [15, 60, 360, 1440, 10080] as const;
export const ALERT_WINDOW_LABELS: Readonly<Record<(typeof ALERT_WINDOWS)[number], string>> = {
  15: "15 minutes",
  60: "1 hour",
  360: "6 hours",
  1440: "24 hours",
  10080: "7 days",
};

const zWindow = z
  .number({ error: (iss) => `expected a window in minutes, got ${showParam(iss.input)}` })
  .refine((n) => (ALERT_WINDOWS as readonly number[]).includes(n), { error: `expected a window of ${ALERT_WINDOWS.join(", ")} minutes` });

const zCount = (what: string, max: number) =>
  z
    .number({ error: (iss) => `expected ${what}, got ${showParam(iss.input)}` })
    .int({ error: `expected ${what}` })
    .min(0, { error: `expected ${what}` })
    .max(max, { error: `expected ${what}` });

/**
 * What a rule watches. Each is read from stored aggregates, so an evaluation reads a few rows
 * however many events there are:
 * - `drop_rate`: reminders of `key` dropped for capacity / its candidates, over the window, above
 *   `threshold` (a fraction) once at least `minCandidates` candidates were counted;
 * - `reviewer_violations`: Reviewer rows with a Reviewer finding (contract §7) over the window, above `threshold`;
 * - `finding`: at least one finding of `code` over the window;
 * - `meter_stage`: a live run whose last rebuilt turn has its `meter` at `stage` or higher (R2);
 * - `runs_out`: a live run projected to reach its `meter`'s limit within `withinTurns` turns of its
 *   last rebuilt turn at its fitted recent pace (docs/projection.md; a limit already reached: 0 turns).
 */
export const ZAlertCondition = z.discriminatedUnion(
  "kind",
  [
    z.strictObject({
      kind: z.literal("drop_rate"),
      key: z.enum(REMINDER_KEYS, { error: `expected a reminder key: ${REMINDER_KEYS.join(", ")}` }),
      threshold: z
        .number({ error: (iss) => `expected a drop rate from 0 to 1, got ${showParam(iss.input)}` })
        .min(0, { error: "expected a drop rate from 0 to 1" })
        .max(1, { error: "expected a drop rate from 0 to 1" }),
      minCandidates: zCount("a whole number of candidates from 1 to 1,000,000", 1_000_000)
        .min(1, { error: "expected at least 1 candidate" })
        .default(20),
      windowMinutes: zWindow,
    }),
    z.strictObject({
      kind: z.literal("reviewer_violations"),
      threshold: zCount("a whole number of violations from 0 to 1,000,000", 1_000_000),
      windowMinutes: zWindow,
    }),
    z.strictObject({
      kind: z.literal("finding"),
      code: z.enum(FINDING_CODES, { error: "expected a finding code of contract §7" }),
      windowMinutes: zWindow,
    }),
    z.strictObject({
      kind: z.literal("meter_stage"),
      meter: z.enum(ALERT_METERS, { error: `expected a meter: ${ALERT_METERS.join(", ")}` }),
      stage: zCount("a stage from 1 to 100", 100).min(1, { error: "expected a stage from 1 to 100" }),
    }),
    z.strictObject({
      kind: z.literal("runs_out"),
      meter: z.enum(RUNS_OUT_METERS, { error: `expected a meter that runs out: ${RUNS_OUT_METERS.join(" or ")}` }),
      withinTurns: zCount("a whole number of turns from 1 to 100,000", MAX_RUNS_OUT_TURNS).min(1, {
        error: "expected a whole number of turns from 1 to 100,000",
      }),
    }),
  ],
  { error: "expected a condition whose kind is drop_rate, reviewer_violations, finding, meter_stage or runs_out" },
);
export type TAlertCondition = z.infer<typeof ZAlertCondition>;
export type TAlertKind = TAlertCondition["kind"];
export const ALERT_KINDS = [
  "drop_rate",
  "reviewer_violations",
  "finding",
  "meter_stage",
  "runs_out",
] as const satisfies readonly TAlertKind[];
/** The kinds that look at the live runs as they are now, with no window. */
export type TLiveRunsCondition = Extract<TAlertCondition, { kind: "meter_stage" | "runs_out" }>;
/** The kinds that sum the trend rollups over a window. */
export type TWindowedCondition = Exclude<TAlertCondition, TLiveRunsCondition>;

const zScopeName = (what: string) =>
  z
    .string({ error: (iss) => `expected ${what}, got ${showParam(iss.input)}` })
    .min(1, { error: `expected ${what} of 1-200 characters` })
    .max(200, { error: `expected ${what} of 1-200 characters` });

/** Which runs a rule counts: one agent's, one model's (as in the trends and runs filters), or all. */
export const ZAlertScope = z.strictObject({ agent: zScopeName("an agent").optional(), model: zScopeName("a model").optional() });
export type TAlertScope = z.infer<typeof ZAlertScope>;

export const MAX_ALERT_NAME_CHARS = 120;
export const MAX_WEBHOOK_URL_CHARS = 2_000;
export const MAX_ALERT_REQUEST_BYTES = 16 * 1024;

const zName = z
  .string({ error: (iss) => `expected a name, got ${showParam(iss.input)}` })
  .trim()
  .min(1, { error: "a rule needs a name" })
  .max(MAX_ALERT_NAME_CHARS, { error: `a name of at most ${MAX_ALERT_NAME_CHARS} characters` });

/** An http(s) URL; whether the server may call it is checked by the server (docs/alerts.md#where-webhooks-may-go). */
const zWebhookUrl = z
  .string({ error: (iss) => `expected a webhook URL or null, got ${showParam(iss.input)}` })
  .trim()
  .min(1, { error: "an empty webhook URL: give null for none" })
  .max(MAX_WEBHOOK_URL_CHARS, { error: `a webhook URL of at most ${MAX_WEBHOOK_URL_CHARS.toLocaleString("en-US")} characters` });

/** An instant in the body (ISO 8601 with its offset). */
const zInstant = z.iso.datetime({ offset: true, error: "expected an ISO 8601 date-time with its offset" });

/** `POST /api/v1/alert-rules`. */
export const ZAlertRuleCreate = z.strictObject({
  name: zName,
  condition: ZAlertCondition,
  scope: ZAlertScope.default({}),
  /** Where to send its alerts (Slack-compatible JSON, signed); null: only the in-app list. */
  webhookUrl: zWebhookUrl.nullable().default(null),
  enabled: z.boolean({ error: "expected true or false" }).default(true),
});
export type TAlertRuleCreate = z.infer<typeof ZAlertRuleCreate>;

/** `PATCH /api/v1/alert-rules/{id}`: what to change (each field left out stays as it is). */
export const ZAlertRuleUpdate = z
  .strictObject({
    name: zName.optional(),
    condition: ZAlertCondition.optional(),
    scope: ZAlertScope.optional(),
    webhookUrl: zWebhookUrl.nullable().optional(),
    /** true: a new signing secret (shown once in the answer); the old one stops at once. */
    rotateSecret: z.literal(true, { error: "expected true" }).optional(),
    enabled: z.boolean({ error: "expected true or false" }).optional(),
    /** Until then its alerts are listed but no webhook is sent; null: not silenced. */
    silencedUntil: zInstant.nullable().optional(),
    /** The rule's version as last read: refused (409) if it changed since. */
    version: z.number().int().min(0).optional(),
  })
  .refine((body) => Object.keys(body).some((k) => k !== "version"), { error: "nothing to change" });
export type TAlertRuleUpdate = z.infer<typeof ZAlertRuleUpdate>;

/** What an evaluation measured (the rule's unit: a rate with its counts, a count, or live runs). */
export const ZAlertValue = z.object({
  /** The window evaluated, [from, to); null for a meter or runs-out rule, which looks at the live runs now. */
  from: z.string().nullable(),
  to: z.string(),
  /** `drop_rate`: dropped and candidates; the rate is dropped / candidates. */
  dropped: z.number().optional(),
  candidates: z.number().optional(),
  rate: z.number().nullable().optional(),
  /** `reviewer_violations` and `finding`: the count over the window. */
  count: z.number().optional(),
  /** `meter_stage` and `runs_out`: the live runs found, counted up to 1,000 (the first 20 are named). */
  runs: z.number().optional(),
  runIds: z.array(z.string()).optional(),
  /**
   * `runs_out`: the first named run's turns to the limit at its fitted pace (0: reached), and the
   * interval its pace's 95% interval allows (high null: not reached at the slowest pace); null when
   * no run was found.
   */
  soonestTurns: z.number().nullable().optional(),
  soonestTurnsLow: z.number().nullable().optional(),
  soonestTurnsHigh: z.number().nullable().optional(),
  /** Whether the condition held. */
  holds: z.boolean(),
});
export type TAlertValue = z.infer<typeof ZAlertValue>;

export const ZAlertRule = z.object({
  id: z.string(),
  name: z.string(),
  condition: ZAlertCondition,
  scope: ZAlertScope,
  /** The condition in words ("context drop rate above 20% over 1 hour, at least 20 candidates"). */
  description: z.string(),
  webhookUrl: z.string().nullable(),
  /** The signing secret: only in the answer that made it (create, rotateSecret); else null. */
  webhookSecret: z.string().nullable(),
  /** Its first characters, to tell secrets apart. */
  webhookSecretHint: z.string().nullable(),
  enabled: z.boolean(),
  silencedUntil: z.string().nullable(),
  state: z.enum(["ok", "firing"]),
  /** The alert it fired while firing. */
  alertId: z.string().nullable(),
  lastValue: ZAlertValue.nullable(),
  evaluatedAt: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  updatedAt: z.string(),
  version: z.number(),
});
export type TAlertRule = z.infer<typeof ZAlertRule>;
export const ZAlertRules = z.object({ rules: z.array(ZAlertRule) });
export const ZAlertRuleDeleted = z.object({ deleted: z.literal(true) });

export const ZDeliveryAttempt = z.object({
  attempt: z.number(),
  at: z.string(),
  /** The receiver's HTTP status; null when it gave none (timeout, reset, refused). */
  status: z.number().nullable(),
  error: z.string().nullable(),
  durationMs: z.number(),
  responseExcerpt: z.string().nullable(),
});
export const ZAlertDelivery = z.object({
  id: z.string(),
  url: z.string(),
  state: z.enum(["pending", "delivered", "failed"]),
  attempts: z.array(ZDeliveryAttempt),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type TAlertDelivery = z.infer<typeof ZAlertDelivery>;

export const ZAlert = z.object({
  id: z.string(),
  /** Null once the rule was deleted (the alert keeps its name and condition). */
  ruleId: z.string().nullable(),
  ruleName: z.string(),
  condition: ZAlertCondition,
  scope: ZAlertScope,
  firedAt: z.string(),
  /** When an evaluation found the condition false again; null while it holds. */
  clearedAt: z.string().nullable(),
  value: ZAlertValue,
  summary: z.string(),
  /** The rule was silenced when it fired: listed, no webhook. */
  silenced: z.boolean(),
  /** The runs list filtered to the runs the alert is about (a path of this app). */
  runsHref: z.string(),
  deliveries: z.array(ZAlertDelivery),
});
export type TAlert = z.infer<typeof ZAlert>;

export const ZAlertListQuery = z.object({
  /** `1`: only alerts whose condition still holds. */
  open: z.enum(["1"], { error: "expected 1" }).optional(),
  ruleId: ZRecordIdParam.optional(),
  cursor: ZCursorParam.optional(),
  limit: zIntParam(1, 200).default(50),
});
export type TAlertListQuery = z.infer<typeof ZAlertListQuery>;
export const ZAlertList = z.object({ alerts: z.array(ZAlert), nextCursor: z.string().nullable() });
export type TAlertList = z.infer<typeof ZAlertList>;

export const ZAlertExportQuery = z.object({
  format: z.enum(["csv", "json"], { error: "expected csv or json" }).default("csv"),
  ruleId: ZRecordIdParam.optional(),
});

export const ZAlertRulePathParams = z.object({ id: ZRecordIdParam });
