import { conditionCountKeys, conditionWindow, judgeCounts } from "@/lib/alerts/conditions";
import type { TAlertCondition, TAlertRuleCreate, TWindowedCondition } from "@/lib/contracts";
import { evaluateAlerts, type DeliverySender, type EvaluationReport } from "@/lib/server/alerts/evaluate";
import { createRule, updateRule } from "@/lib/server/alerts/rules";
import type { Caller } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";

/**
 * The demo's alerts (docs/alerts.md), so the alerts page has a history to show: five rules made as
 * an admin makes them (createRule, so each is in the audit log), then the evaluation (evaluateAlerts)
 * run at past instants of the demo runs' time range, the ones where the every-minute job would have
 * fired or cleared a rule, and at last now. Some rules fire and clear, one is still firing, one is
 * silenced and one is off.
 *
 * Nothing is sent: the evaluation is given a `send` that makes no job (the loader starts no queue),
 * and the webhook deliveries it made get a demo log of attempts written here, as deliver.ts writes
 * them (one delivered after a 500 and a timeout, one failed after its last attempt, the others
 * delivered at once) to https://hooks.example.com, which is never called.
 *
 * Run after the demo runs are rebuilt, on the embedded demo database only: the evaluation reads every
 * project's enabled rules. A project that has alert rules already is left alone (null).
 */

export interface DemoAlerts {
  rules: number;
  alerts: number;
  open: number;
  deliveries: number;
}

const QUARTER_MS = 15 * 60_000;
/** Where in its quarter hour each replayed evaluation runs: near its end, after the quarter's events. */
const EVALUATED_AT_MS = 14 * 60_000 + 2_000;
/** The deliveries' job is taken within a second of the alert (the queue polls every second). */
const PICKED_UP_MS = 700;

const REVIEWER_HOOK = "https://hooks.example.com/cuescope/demo-reviewer-violations";
const FINDINGS_HOOK = "https://hooks.example.com/cuescope/demo-findings";

/** Made before the replay: the windowed rules, whose measurements depend on the instant evaluated. */
const WINDOWED_RULES: TAlertRuleCreate[] = [
  {
    // edits is the key the demo drops most of (its edits drops come in bursts, a few per cent of an hour's candidates).
    name: "Edits reminders dropped",
    condition: { kind: "drop_rate", key: "edits", threshold: 0.01, minCandidates: 200, windowMinutes: 60 },
    scope: {},
    webhookUrl: null,
    enabled: true,
  },
  {
    name: "Reviewer violations piling up",
    condition: { kind: "reviewer_violations", threshold: 2, windowMinutes: 360 },
    scope: {},
    webhookUrl: REVIEWER_HOOK,
    enabled: true,
  },
  {
    // Silenced after its first alert: its later ones are listed, marked silenced, without a webhook.
    name: "Candidate cancelled by a drop",
    condition: { kind: "finding", code: "CANDIDATE_CANCELLED_BY_DROP", windowMinutes: 60 },
    scope: {},
    webhookUrl: FINDINGS_HOOK,
    enabled: true,
  },
  {
    name: "Free requests (off: too noisy)",
    condition: { kind: "finding", code: "FREE_REQUEST", windowMinutes: 1440 },
    scope: {},
    webhookUrl: null,
    enabled: false,
  },
];

/**
 * Made after the replay: a meter rule looks at the live runs as they are now, whatever instant is
 * evaluated, so replaying it over the past would fire it before its run existed. The demo's live run
 * (etf-sector-weights, no run.ended) is a research agent's at time stage 3.
 */
const METER_RULE: TAlertRuleCreate = {
  name: "Live research run deep into its time budget",
  condition: { kind: "meter_stage", meter: "time", stage: 3 },
  scope: { agent: "etf-research-agent" },
  webhookUrl: null,
  enabled: true,
};

const SILENCED_FOR_MS = 7 * 24 * 3_600_000;

/** The evaluation's deliveries stay as rows only: no job is sent, so nothing calls the webhook. */
const sendNothing: DeliverySender = async () => {};

export async function loadDemoAlerts(db: Database, caller: Caller, now = new Date()): Promise<DemoAlerts | null> {
  const projectId = caller.projectId;
  if ((await db.prisma.alertRule.count({ where: { projectId } })) > 0) return null;

  const [range] = await db.prisma.$queryRaw<{ first: Date | null }[]>`
    SELECT min("started_at") AS "first" FROM "runs" WHERE "project_id" = ${projectId}`;
  if (!range?.first) return null;

  const rules = [];
  for (const body of WINDOWED_RULES) rules.push(await createRule(db, caller, body));
  const silenced = rules.find((rule) => rule.name === "Candidate cancelled by a drop")!;

  const evaluate = async (at: Date) => check(await evaluateAlerts(db, sendNothing, at), at);
  const windowed = WINDOWED_RULES.filter((rule) => rule.enabled).map((rule) => rule.condition);
  let silencedYet = false;
  for (const at of await turningPoints(db, projectId, windowed, range.first, now)) {
    await evaluate(at);
    // Its first alert pinged the webhook and cleared: someone silenced it for a week (real time: the audit log's).
    if (!silencedYet && (await firedAndCleared(db, projectId, silenced.id))) {
      await updateRule(db, caller, silenced.id, { silencedUntil: new Date(now.getTime() + SILENCED_FOR_MS).toISOString() });
      silencedYet = true;
    }
  }
  const meter = await createRule(db, caller, METER_RULE);
  rules.push(meter);
  // Now, and not before the meter rule was made (the replay took a moment).
  await evaluate(new Date(Math.max(now.getTime(), Date.parse(meter.createdAt))));

  const deliveries = await writeDeliveryLog(db, projectId, now);
  const [alerts, open] = await Promise.all([
    db.prisma.alert.count({ where: { projectId } }),
    db.prisma.alert.count({ where: { projectId, clearedAt: null } }),
  ]);
  return { rules: rules.length, alerts, open, deliveries };
}

/**
 * The past instants where the every-minute evaluation would have found one of `conditions` turn true
 * or false, from `first` to `now`: each quarter hour's counts are summed here from the 15-minute
 * rollups (the window and the judgement are conditions.ts's, as the evaluation's), and a quarter
 * whose outcomes differ from the one before is evaluated for real. A window only moves at the quarter
 * hours, so evaluating each quarter instead would find the same alerts, a hundred times slower.
 */
async function turningPoints(
  db: Database,
  projectId: string,
  conditions: readonly TAlertCondition[],
  first: Date,
  now: Date,
): Promise<Date[]> {
  const windowed = conditions.filter((c): c is TWindowedCondition => "windowMinutes" in c);
  const keys = [...new Set(windowed.flatMap(conditionCountKeys))];
  const start = Math.floor(first.getTime() / QUARTER_MS) * QUARTER_MS;
  const rows = await db.prisma.$queryRaw<{ bucket: Date; key: string; n: number }[]>`
    SELECT "bucket", "key", sum("n")::float8 AS "n" FROM "trend_rollups"
     WHERE "project_id" = ${projectId} AND "minutes" = 15 AND "key" = ANY(${keys})
       AND "bucket" >= ${new Date(start - 10_080 * 60_000)} AND "bucket" < ${now}
     GROUP BY "bucket", "key"`;
  const counts = new Map(rows.map((row) => [`${row.bucket.getTime()} ${row.key}`, row.n]));
  const sums = (window: { from: number; to: number }, wanted: readonly string[]) => {
    const totals = new Map<string, number>();
    for (let bucket = window.from; bucket < window.to; bucket += QUARTER_MS) {
      for (const key of wanted) totals.set(key, (totals.get(key) ?? 0) + (counts.get(`${bucket} ${key}`) ?? 0));
    }
    return totals;
  };
  const instants: Date[] = [];
  let before = windowed.map(() => false); // every rule starts ok
  for (let at = start + EVALUATED_AT_MS; at < now.getTime(); at += QUARTER_MS) {
    const holds = windowed.map((c) => {
      const window = conditionWindow(c.windowMinutes, at);
      return judgeCounts(c, sums(window, conditionCountKeys(c)), window).holds;
    });
    if (holds.some((h, i) => h !== before[i])) instants.push(new Date(at));
    before = holds;
  }
  return instants;
}

function check(report: EvaluationReport, at: Date): void {
  if (report.failed > 0) throw new Error(`${report.failed} demo alert rules could not be evaluated at ${at.toISOString()}`);
}

async function firedAndCleared(db: Database, projectId: string, ruleId: string): Promise<boolean> {
  return (await db.prisma.alert.count({ where: { projectId, ruleId, clearedAt: { not: null } } })) > 0;
}

/** One attempt's answer, as post-webhook.ts gives it. */
type Answer = { status: number | null; error: string | null; durationMs: number; responseExcerpt: string | null };

const OK: Answer = { status: 200, error: null, durationMs: 143, responseExcerpt: "ok" };
const ERROR_500: Answer = {
  status: 500,
  error: "the receiver answered 500 Internal Server Error",
  durationMs: 212,
  responseExcerpt: '{"error":"internal_error","message":"demo receiver: could not post to the channel, try again"}',
};
const UNAVAILABLE: Answer = {
  status: 503,
  error: "the receiver answered 503 Service Unavailable",
  durationMs: 58,
  responseExcerpt: "upstream connect error or disconnect/reset before headers. reset reason: connection failure",
};
const BAD_GATEWAY: Answer = {
  status: 502,
  error: "the receiver answered 502 Bad Gateway",
  durationMs: 31,
  responseExcerpt:
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n",
};
const REFUSED: Answer = { status: null, error: "the connection was refused (ECONNREFUSED)", durationMs: 24, responseExcerpt: null };
/** CUESCOPE_WEBHOOK_TIMEOUT_MS's default, 10 s. */
const TIMED_OUT: Answer = { status: null, error: "no answer within 10 s", durationMs: 10_003, responseExcerpt: null };

/** The demo's three stories: at once; after a 500 and a timeout; never (receiver down, 1 + 8 attempts). */
const AT_ONCE: Answer[] = [OK];
const AFTER_RETRIES: Answer[] = [ERROR_500, TIMED_OUT, { ...OK, durationMs: 187 }];
const NEVER: Answer[] = [UNAVAILABLE, UNAVAILABLE, REFUSED, TIMED_OUT, BAD_GATEWAY, REFUSED, UNAVAILABLE, TIMED_OUT, UNAVAILABLE];
/** Where in pg-boss's backoff range [d·2^k, d·2^(k+1)] s (d = 5) each retry k waits: fixed, so the demo is the same every time. */
const JITTER = [0.31, 0.72, 0.18, 0.55, 0.9, 0.07, 0.46, 0.63];

/** When each attempt starts: the first as the job is taken, each retry after the previous attempt and pg-boss's backoff. */
function attemptTimes(created: Date, answers: readonly Answer[]): number[] {
  const times: number[] = [];
  let at = created.getTime() + PICKED_UP_MS;
  for (const [k, answer] of answers.entries()) {
    times.push(at);
    at += answer.durationMs + Math.round(5_000 * 2 ** k * (1 + JITTER[k % JITTER.length]));
  }
  return times;
}

/**
 * The demo's delivery log, written as deliver.ts would have written it: the newest delivery failed
 * after its ninth attempt (when that would be over by now), the one before it was delivered after a
 * 500 and a timeout, and older ones at once. The evaluation made each delivery with the alert, but
 * its created_at is the database's clock: it is set to the alert's firing time here.
 */
async function writeDeliveryLog(db: Database, projectId: string, now: Date): Promise<number> {
  const deliveries = await db.prisma.alertDelivery.findMany({
    where: { projectId, state: "pending", attempts: 0 },
    include: { alert: { select: { firedAt: true } } },
    orderBy: [{ alert: { firedAt: "desc" } }, { id: "asc" }],
  });
  for (const [i, delivery] of deliveries.entries()) {
    const created = delivery.alert.firedAt;
    let answers = i === 0 ? NEVER : i === 1 ? AFTER_RETRIES : AT_ONCE;
    let times = attemptTimes(created, answers);
    if (times[times.length - 1] + answers[answers.length - 1].durationMs >= now.getTime()) {
      answers = AT_ONCE; // not all over by now: this one was delivered at once
      times = attemptTimes(created, answers);
    }
    const last = answers.length - 1;
    const delivered = answers[last].status !== null && answers[last].status >= 200 && answers[last].status < 300;
    await db.prisma.$transaction([
      db.prisma.alertDeliveryAttempt.createMany({
        data: answers.map((answer, k) => ({ projectId, deliveryId: delivery.id, attempt: k + 1, at: new Date(times[k]), ...answer })),
      }),
      db.prisma.alertDelivery.update({
        where: { projectId_id: { projectId, id: delivery.id } },
        data: {
          createdAt: created,
          attempts: answers.length,
          state: delivered ? "delivered" : "failed",
          // deliver.ts stamps it as the last attempt's answer is recorded.
          finishedAt: new Date(times[last] + answers[last].durationMs + 4),
        },
      }),
    ]);
  }
  return deliveries.length;
}
