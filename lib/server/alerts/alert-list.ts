import {
  ZAlertCondition,
  ZAlertScope,
  ZAlertValue,
  type TAlert,
  type TAlertDelivery,
  type TAlertList,
  type TAlertListQuery,
} from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import type { Prisma } from "@/lib/server/db/generated/client";
import { DomainError } from "@/lib/server/errors";
import { streamedDownload } from "@/lib/server/export/streamed-download";
import { shownUrl } from "./rules";

/**
 * The in-app list of alerts (docs/alerts.md#the-alerts-page): newest first, a keyset page at a time
 * along alerts_fired_idx, each with its deliveries and their attempts (two more reads by the page's
 * keys), so a page costs the same however many alerts the project has.
 */
export async function listAlerts(db: Database, projectId: string, query: TAlertListQuery): Promise<TAlertList> {
  const after = query.cursor ? cursorOf(query.cursor) : null;
  const where: Prisma.AlertWhereInput = {
    projectId,
    ...(query.open ? { clearedAt: null } : {}),
    ...(query.ruleId ? { ruleId: query.ruleId } : {}),
    ...(after ? { OR: [{ firedAt: { lt: after.firedAt } }, { firedAt: after.firedAt, id: { lt: after.id } }] } : {}),
  };
  const rows = await db.prisma.alert.findMany({ where, orderBy: [{ firedAt: "desc" }, { id: "desc" }], take: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  const deliveries = await deliveriesOf(
    db,
    projectId,
    page.map((row) => row.id),
  );
  const last = page.at(-1);
  return {
    alerts: page.map((row) => ({
      id: row.id,
      ruleId: row.ruleId,
      ruleName: row.ruleName,
      condition: ZAlertCondition.parse(row.condition),
      scope: ZAlertScope.parse(row.scope ?? {}),
      firedAt: row.firedAt.toISOString(),
      clearedAt: row.clearedAt?.toISOString() ?? null,
      value: ZAlertValue.parse(row.value),
      summary: row.summary,
      silenced: row.silenced,
      runsHref: row.runsHref,
      deliveries: deliveries.get(row.id) ?? [],
    })),
    nextCursor:
      rows.length > query.limit && last ? Buffer.from(JSON.stringify([last.firedAt.toISOString(), last.id])).toString("base64url") : null,
  };
}

function cursorOf(cursor: string): { firedAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString()) as unknown[];
    const firedAt = new Date(String(at));
    if (typeof id === "string" && !Number.isNaN(firedAt.getTime())) return { firedAt, id };
  } catch {
    // Below: one message for every malformed cursor.
  }
  throw new DomainError("invalid", "cursor: not a nextCursor this list gave", "cursor");
}

/** The deliveries of these alerts with their attempts, by alert. */
async function deliveriesOf(db: Database, projectId: string, alertIds: string[]): Promise<Map<string, TAlertDelivery[]>> {
  const byAlert = new Map<string, TAlertDelivery[]>();
  if (alertIds.length === 0) return byAlert;
  const deliveries = await db.prisma.alertDelivery.findMany({
    where: { projectId, alertId: { in: alertIds } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: { answers: { orderBy: { attempt: "asc" } } },
  });
  for (const d of deliveries) {
    const list = byAlert.get(d.alertId) ?? [];
    list.push({
      id: d.id,
      url: shownUrl(d.url) ?? "",
      state: d.state as TAlertDelivery["state"],
      createdAt: d.createdAt.toISOString(),
      finishedAt: d.finishedAt?.toISOString() ?? null,
      attempts: d.answers.map((a) => ({
        attempt: a.attempt,
        at: a.at.toISOString(),
        status: a.status,
        error: a.error,
        durationMs: a.durationMs,
        responseExcerpt: a.responseExcerpt,
      })),
    });
    byAlert.set(d.alertId, list);
  }
  return byAlert;
}

export const ALERT_CSV_COLUMNS = [
  "id",
  "rule_id",
  "rule_name",
  "condition",
  "scope",
  "fired_at",
  "cleared_at",
  "summary",
  "value",
  "silenced",
  "runs_href",
  "deliveries",
  "delivered",
  "failed",
  "attempts",
] as const;

/** Every alert (or one rule's), newest first, streamed as CSV or JSON a page at a time. */
export async function exportAlerts(db: Database, projectId: string, query: { ruleId?: string }, format: "csv" | "json"): Promise<Response> {
  const read = async (cursor?: string) => {
    const list = await listAlerts(db, projectId, { ruleId: query.ruleId, cursor, limit: 200 });
    return { rows: list.alerts, nextCursor: list.nextCursor };
  };
  return streamedDownload<TAlert>({
    format,
    first: await read(),
    next: read,
    csvColumns: ALERT_CSV_COLUMNS,
    csvCells: (a) => [
      a.id,
      a.ruleId ?? "",
      a.ruleName,
      JSON.stringify(a.condition),
      JSON.stringify(a.scope),
      a.firedAt,
      a.clearedAt ?? "",
      a.summary,
      JSON.stringify(a.value),
      String(a.silenced),
      a.runsHref,
      String(a.deliveries.length),
      String(a.deliveries.filter((d) => d.state === "delivered").length),
      String(a.deliveries.filter((d) => d.state === "failed").length),
      String(a.deliveries.reduce((n, d) => n + d.attempts.length, 0)),
    ],
    filename: "cuescope-alerts",
    label: "alerts export",
  });
}
