import { randomUUID } from "node:crypto";
import {
  conditionCountKeys,
  conditionWindow,
  describeValue,
  judgeCounts,
  judgeLiveRuns,
  runsHref,
  turnsToLimit,
} from "@/lib/alerts/conditions";
import { webhookBody } from "@/lib/alerts/webhook-body";
import {
  ZAlertCondition,
  ZAlertScope,
  ZRunProjection,
  type TAlertCondition,
  type TAlertScope,
  type TAlertValue,
  type TLiveRunsCondition,
} from "@/lib/contracts";
import { publicUrl } from "@/lib/server/auth/people-auth";
import type { Database } from "@/lib/server/db";
import type { Prisma } from "@/lib/server/db/generated/client";
import { likeLiteral } from "@/lib/server/runs/run-filters";
import { spanTotals } from "@/lib/server/trends/trends";

/**
 * The alert rules' evaluation (docs/alerts.md#evaluation), the job the durable queue runs every minute:
 * every enabled rule of every project, each read from stored aggregates only (a window of the trend
 * rollups, or the live runs at a meter's stage or near a limit through their partial indexes), so its
 * cost grows with the rules and not with the events. A rule fires once when its condition becomes
 * true: one alert, and one webhook delivery unless silenced, written in one transaction with the
 * delivery's job; it fires again only after an evaluation has found the condition false (the alert is
 * then cleared).
 */

/** Sends the deliveries' jobs inside the transaction that made them (JobQueue.sendAlertDeliveries). */
export type DeliverySender = (tx: Prisma.TransactionClient, jobs: { projectId: string; deliveryId: string }[]) => Promise<void>;

/** Rules read per page of the evaluation. */
const PAGE = 100;
/** Live runs named by a meter or runs-out rule's value; the count stops at MAX_COUNTED. */
const NAMED_RUNS = 20;
const MAX_COUNTED = 1000;

export interface EvaluationReport {
  evaluated: number;
  fired: number;
  cleared: number;
  /** Rules whose evaluation failed (logged; the next minute tries again). */
  failed: number;
}

type RuleRow = {
  projectId: string;
  id: string;
  version: number;
  condition: unknown;
  scope: unknown;
};

/** Evaluates every enabled rule of every project at `now`. One rule's failure does not stop the others. */
export async function evaluateAlerts(db: Database, send: DeliverySender, now = new Date()): Promise<EvaluationReport> {
  const report: EvaluationReport = { evaluated: 0, fired: 0, cleared: 0, failed: 0 };
  let after: [string, string] = ["", ""];
  for (;;) {
    const rules = await db.prisma.$queryRaw<RuleRow[]>`
      SELECT "project_id" AS "projectId", "id", "version", "condition", "scope" FROM "alert_rules"
       WHERE "enabled" AND ("project_id", "id") > (${after[0]}, ${after[1]})
       ORDER BY "project_id", "id" LIMIT ${PAGE}`;
    for (const rule of rules) {
      try {
        const outcome = await evaluateRule(db, rule, send, now);
        report.evaluated++;
        if (outcome === "fired") report.fired++;
        if (outcome === "cleared") report.cleared++;
      } catch (error) {
        report.failed++;
        console.error(`[cuescope] alert rule ${rule.projectId}/${rule.id} could not be evaluated:`, error);
      }
    }
    if (rules.length < PAGE) return report;
    const last = rules[rules.length - 1];
    after = [last.projectId, last.id];
  }
}

/** What a rule's condition measures now: a window of the rollups, or the live runs at a meter's stage or near a limit. */
export async function measure(
  db: Database,
  projectId: string,
  condition: TAlertCondition,
  scope: TAlertScope,
  now: Date,
): Promise<TAlertValue> {
  if (condition.kind === "meter_stage" || condition.kind === "runs_out") return measureLiveRuns(db, projectId, condition, scope, now);
  const window = conditionWindow(condition.windowMinutes, now.getTime());
  const keys = conditionCountKeys(condition);
  const counts = await spanTotals(db, projectId, window, {
    agent: scope.agent,
    model: scope.model,
    // The exact keys, as LIKE patterns: a code's `_` is a wildcard unless escaped.
    keys: { like: keys.map(likeLiteral) },
  });
  return judgeCounts(condition, counts, window);
}

/**
 * The live runs a meter rule or a runs-out rule finds, from the columns the rebuild keeps on each
 * run's row (lib/server/runs/list-figures.ts), through their partial indexes of the live runs: at
 * the meter's stage or higher, highest first (prisma/migrations/20270105000000_alerts); or projected
 * to reach the meter's limit within the turns, soonest first (20270107000100_runs_limit_in). A
 * run-out value also has the soonest run's interval, from that one run's stored projection.
 */
async function measureLiveRuns(
  db: Database,
  projectId: string,
  condition: TLiveRunsCondition,
  scope: TAlertScope,
  now: Date,
): Promise<TAlertValue> {
  const filters: string[] = [];
  const params: unknown[] = [projectId];
  let where: string;
  let order: string;
  if (condition.kind === "meter_stage") {
    const column = `"${condition.meter}_stage"`;
    // `> 0` lets the planner use the meter's partial index.
    where = `${column} > 0 AND ${column} >= $${params.push(condition.stage)}`;
    order = `${column} DESC`;
  } else {
    const column = `"${condition.meter}_limit_in"`;
    // `IS NOT NULL` lets the planner use the meter's partial index.
    where = `${column} IS NOT NULL AND ${column} <= $${params.push(condition.withinTurns)}`;
    order = `${column} ASC`;
  }
  if (scope.agent) filters.push(` AND "agent" = $${params.push(scope.agent)}`);
  if (scope.model) filters.push(` AND "model" = $${params.push(scope.model)}`);
  const rows = await db.prisma.$queryRawUnsafe<{ id: string; runId: string }[]>(
    `SELECT "id", "run_id" AS "runId" FROM "runs"
      WHERE "project_id" = $1 AND "status" = 'live' AND ${where}${filters.join("")}
      ORDER BY ${order}, "last_event_at" DESC LIMIT ${MAX_COUNTED}`,
    ...params,
  );
  const runIds = rows.slice(0, NAMED_RUNS).map((r) => r.runId);
  if (condition.kind === "meter_stage") return judgeLiveRuns(rows.length, runIds, now.getTime());
  let soonest = null;
  if (rows.length > 0) {
    const [stored] = await db.prisma.$queryRaw<{ projection: unknown }[]>`
      SELECT "summary"->'projection' AS "projection" FROM "run_decisions" WHERE "project_id" = ${projectId} AND "run_pk" = ${rows[0].id}`;
    const projection = ZRunProjection.safeParse(stored?.projection);
    soonest = projection.success ? turnsToLimit(projection.data, condition.meter) : null;
  }
  return judgeLiveRuns(rows.length, runIds, now.getTime(), soonest);
}

type Outcome = "fired" | "cleared" | "held" | "skipped";

async function evaluateRule(db: Database, rule: RuleRow, send: DeliverySender, now: Date): Promise<Outcome> {
  const condition = ZAlertCondition.parse(rule.condition);
  const scope = ZAlertScope.parse(rule.scope ?? {});
  const value = await measure(db, rule.projectId, condition, scope, now);
  return db.prisma.$transaction(async (tx) => {
    // A rule being changed (or evaluated by another process) is left to the next minute.
    const [locked] = await tx.$queryRaw<
      {
        version: number;
        enabled: boolean;
        state: string;
        alertId: string | null;
        name: string;
        webhookUrl: string | null;
        silencedUntil: Date | null;
      }[]
    >`
      SELECT "version", "enabled", "state", "alert_id" AS "alertId", "name", "webhook_url" AS "webhookUrl", "silenced_until" AS "silencedUntil"
        FROM "alert_rules" WHERE "project_id" = ${rule.projectId} AND "id" = ${rule.id}
         FOR UPDATE SKIP LOCKED`;
    if (!locked || !locked.enabled || locked.version !== rule.version) return "skipped";
    const where = { projectId_id: { projectId: rule.projectId, id: rule.id } };
    const lastValue = value as unknown as Prisma.InputJsonValue;
    if (value.holds && locked.state !== "firing") {
      const alertId = randomUUID();
      const silenced = locked.silencedUntil !== null && locked.silencedUntil > now;
      const summary = describeValue(condition, value);
      const href = runsHref(condition, scope);
      await tx.alert.create({
        data: {
          projectId: rule.projectId,
          id: alertId,
          ruleId: rule.id,
          ruleName: locked.name,
          condition,
          scope,
          firedAt: now,
          value: lastValue,
          summary,
          silenced,
          runsHref: href,
        },
      });
      await tx.alertRule.update({ where, data: { state: "firing", alertId, lastValue, evaluatedAt: now } });
      if (locked.webhookUrl && !silenced) {
        const project = await tx.project.findUniqueOrThrow({ where: { id: rule.projectId }, select: { name: true } });
        const deliveryId = randomUUID();
        const body = webhookBody(
          {
            id: alertId,
            ruleId: rule.id,
            ruleName: locked.name,
            condition,
            scope,
            firedAt: now.toISOString(),
            value,
            summary,
            runsHref: href,
          },
          project.name,
          publicUrl(),
        );
        await tx.alertDelivery.create({ data: { projectId: rule.projectId, id: deliveryId, alertId, url: locked.webhookUrl, body } });
        await send(tx, [{ projectId: rule.projectId, deliveryId }]);
      }
      return "fired";
    }
    if (!value.holds && locked.state === "firing") {
      if (locked.alertId) {
        await tx.alert.updateMany({ where: { projectId: rule.projectId, id: locked.alertId, clearedAt: null }, data: { clearedAt: now } });
      }
      await tx.alertRule.update({ where, data: { state: "ok", alertId: null, lastValue, evaluatedAt: now } });
      return "cleared";
    }
    await tx.alertRule.update({ where, data: { lastValue, evaluatedAt: now } });
    return "held";
  });
}
