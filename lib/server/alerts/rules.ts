import { randomUUID } from "node:crypto";
import { describeCondition } from "@/lib/alerts/conditions";
import { newWebhookSecret } from "@/lib/alerts/webhook-signature";
import { ZAlertCondition, ZAlertScope, ZAlertValue, type TAlertRule, type TAlertRuleCreate, type TAlertRuleUpdate } from "@/lib/contracts";
import { actorOf, recordAudit, signedName } from "@/lib/server/audit/audit-log";
import type { Caller } from "@/lib/server/auth/keys";
import { publicUrl } from "@/lib/server/auth/people-auth";
import type { Database } from "@/lib/server/db";
import { Prisma, type AlertRule } from "@/lib/server/db/generated/client";
import { env } from "@/lib/server/env";
import { DomainError } from "@/lib/server/errors";
import { checkWebhookTarget } from "./webhook-target";

/**
 * The project's alert rules (docs/alerts.md): made, changed, silenced and deleted by admins, each
 * change in the audit log in the same transaction. A rule's webhook URL is checked here (http or
 * https, not this server, not a private address unless CUESCOPE_WEBHOOK_ALLOW_PRIVATE), and again at
 * send time, where a host name's addresses are checked as it connects.
 */

/** A project's rules are few; past this, another is refused rather than slowing every evaluation. */
export const MAX_RULES_PER_PROJECT = 200;

/**
 * Where webhooks may go, from the operator's settings: the check rules and deliveries share. This
 * server is its public URL and the address `npm start` listens on (CUESCOPE_SERVER_URL).
 */
export function webhookPolicy(): { allowPrivate: boolean; selfOrigins: string[]; selfPort: number } {
  const urls = [publicUrl(), env("CUESCOPE_SERVER_URL")].flatMap((url) => (url && URL.canParse(url) ? [new URL(url)] : []));
  const listening = urls.at(-1);
  const selfPort = Number(listening?.port || process.env.PORT || 3000);
  return { allowPrivate: env("CUESCOPE_WEBHOOK_ALLOW_PRIVATE"), selfOrigins: urls.map((url) => url.origin), selfPort };
}

/** The URL as it will be called, or a 400 naming what is wrong with it. */
function checkedUrl(url: string | null): string | null {
  if (url === null) return null;
  const checked = checkWebhookTarget(url, webhookPolicy());
  if (!checked.ok) throw new DomainError("invalid", `body.webhookUrl: ${checked.error}`, "webhookUrl");
  return checked.url.toString();
}

/**
 * A webhook URL as the API shows it after it was saved: its origin, and `/…` for the rest. A chat
 * service's webhook URL is itself a credential (Slack's path is its token), and every member and viewer
 * reads the rules, the deliveries, the export and the audit log: like the secret, the whole URL is
 * shown only in the answer that set it.
 */
export function shownUrl(url: string | null): string | null {
  if (url === null) return null;
  if (!URL.canParse(url)) return "…";
  const parsed = new URL(url);
  return parsed.pathname === "/" && !parsed.search ? parsed.origin : `${parsed.origin}/…`;
}

/** A rule as the API shows it; its secret and whole webhook URL only when just set (`fresh`). */
export function ruleOf(row: AlertRule, fresh: { secret: string | null; url: boolean } = { secret: null, url: false }): TAlertRule {
  const condition = ZAlertCondition.parse(row.condition);
  const scope = ZAlertScope.parse(row.scope ?? {});
  const lastValue = row.lastValue === null ? null : ZAlertValue.safeParse(row.lastValue);
  return {
    id: row.id,
    name: row.name,
    condition,
    scope,
    description: describeCondition(condition, scope),
    webhookUrl: fresh.url ? row.webhookUrl : shownUrl(row.webhookUrl),
    webhookSecret: fresh.secret,
    webhookSecretHint: row.webhookSecret ? `${row.webhookSecret.slice(0, 10)}…` : null,
    enabled: row.enabled,
    silencedUntil: row.silencedUntil?.toISOString() ?? null,
    state: row.state === "firing" ? "firing" : "ok",
    alertId: row.alertId,
    lastValue: lastValue?.success ? lastValue.data : null,
    evaluatedAt: row.evaluatedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    updatedAt: row.updatedAt.toISOString(),
    version: row.version,
  };
}

/** What the audit log keeps of a rule: never its secret. */
function audited(row: Pick<AlertRule, "name" | "condition" | "scope" | "webhookUrl" | "enabled" | "silencedUntil">) {
  return {
    name: row.name,
    condition: row.condition,
    scope: row.scope,
    webhookUrl: shownUrl(row.webhookUrl),
    enabled: row.enabled,
    silencedUntil: row.silencedUntil?.toISOString() ?? null,
  };
}

export async function listRules(db: Database, projectId: string): Promise<TAlertRule[]> {
  const rows = await db.prisma.alertRule.findMany({ where: { projectId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map((row) => ruleOf(row));
}

export async function getRule(db: Database, projectId: string, id: string): Promise<TAlertRule> {
  const row = await db.prisma.alertRule.findUnique({ where: { projectId_id: { projectId, id } } });
  if (!row) throw notFound(id);
  return ruleOf(row);
}

function notFound(id: string): DomainError {
  return new DomainError("not_found", `this project has no alert rule ${JSON.stringify(id)}`, "id");
}

export async function createRule(db: Database, caller: Caller, body: TAlertRuleCreate): Promise<TAlertRule> {
  const webhookUrl = checkedUrl(body.webhookUrl);
  const secret = webhookUrl ? newWebhookSecret() : null;
  return db.prisma.$transaction(async (tx) => {
    // The project's row lock: two rules made at once count each other.
    await tx.$queryRaw`SELECT 1 FROM "projects" WHERE "id" = ${caller.projectId} FOR UPDATE`;
    const count = await tx.alertRule.count({ where: { projectId: caller.projectId } });
    if (count >= MAX_RULES_PER_PROJECT) {
      throw new DomainError("invalid", `this project has ${count} alert rules, the most it may have: delete one first`);
    }
    const row = await tx.alertRule.create({
      data: {
        projectId: caller.projectId,
        id: randomUUID(),
        name: body.name,
        condition: body.condition,
        scope: body.scope,
        webhookUrl,
        webhookSecret: secret,
        enabled: body.enabled,
        createdBy: signedName(caller),
      },
    });
    await recordAudit(tx, caller.projectId, actorOf(caller), {
      action: "alertRule.create",
      target: { id: row.id, name: row.name },
      after: audited(row),
    });
    return ruleOf(row, { secret, url: true });
  });
}

/**
 * Changes a rule. A new condition or scope starts it afresh (state ok: the next evaluation fires if
 * the new condition holds); an alert it fired stays listed, and is cleared. Silencing only stops
 * webhooks. With `version`, a rule changed since it was read is refused (409).
 */
export async function updateRule(db: Database, caller: Caller, id: string, body: TAlertRuleUpdate): Promise<TAlertRule> {
  const webhookUrl = body.webhookUrl === undefined ? undefined : checkedUrl(body.webhookUrl);
  return db.prisma.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ version: number }[]>`
      SELECT "version" FROM "alert_rules" WHERE "project_id" = ${caller.projectId} AND "id" = ${id} FOR UPDATE`;
    if (!locked) throw notFound(id);
    const before = await tx.alertRule.findUniqueOrThrow({ where: { projectId_id: { projectId: caller.projectId, id } } });
    if (body.version !== undefined && body.version !== before.version) {
      throw new DomainError(
        "conflict",
        `the rule changed since you read it (version ${body.version}, now ${before.version}): read it again`,
        "version",
      );
    }
    // A form that sends the whole rule back unchanged must not restart it (and fire its webhook again).
    const reset =
      (body.condition !== undefined && JSON.stringify(body.condition) !== JSON.stringify(ZAlertCondition.parse(before.condition))) ||
      (body.scope !== undefined && JSON.stringify(body.scope) !== JSON.stringify(ZAlertScope.parse(before.scope ?? {})));
    const newUrl = webhookUrl !== undefined && webhookUrl !== before.webhookUrl;
    // A webhook gets a secret when it first gets a URL, and a new one when asked.
    const secret = body.rotateSecret || (newUrl && webhookUrl !== null && before.webhookSecret === null) ? newWebhookSecret() : undefined;
    if (body.rotateSecret && (webhookUrl === null || (webhookUrl === undefined && before.webhookUrl === null))) {
      throw new DomainError("invalid", "body.rotateSecret: the rule has no webhook to sign for", "rotateSecret");
    }
    const now = new Date();
    const row = await tx.alertRule.update({
      where: { projectId_id: { projectId: caller.projectId, id } },
      data: {
        name: body.name,
        condition: body.condition,
        scope: body.scope,
        webhookUrl,
        ...(webhookUrl === null ? { webhookSecret: null } : secret ? { webhookSecret: secret } : {}),
        enabled: body.enabled,
        silencedUntil: body.silencedUntil === undefined ? undefined : body.silencedUntil === null ? null : new Date(body.silencedUntil),
        ...(reset || body.enabled === false ? { state: "ok", alertId: null, lastValue: Prisma.DbNull } : {}),
        version: { increment: 1 },
        updatedAt: now,
      },
    });
    if ((reset || body.enabled === false) && before.alertId) {
      await tx.alert.updateMany({
        where: { projectId: caller.projectId, id: before.alertId, clearedAt: null },
        data: { clearedAt: now },
      });
    }
    const [was, is] = [audited(before), audited(row)];
    const changed = (Object.keys(is) as (keyof typeof is)[]).filter((k) => JSON.stringify(was[k]) !== JSON.stringify(is[k]));
    if (changed.length > 0 || secret) {
      await recordAudit(tx, caller.projectId, actorOf(caller), {
        action: "alertRule.update",
        target: { id: row.id, name: row.name },
        before: Object.fromEntries(changed.map((k) => [k, was[k]])),
        after: { ...Object.fromEntries(changed.map((k) => [k, is[k]])), ...(body.rotateSecret ? { secretRotated: true } : {}) },
      });
    }
    return ruleOf(row, { secret: secret ?? null, url: newUrl && webhookUrl !== null });
  });
}

export async function deleteRule(db: Database, caller: Caller, id: string): Promise<void> {
  await db.prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<AlertRule[]>`
      SELECT "name", "condition", "scope", "webhook_url" AS "webhookUrl", "enabled", "silenced_until" AS "silencedUntil"
        FROM "alert_rules" WHERE "project_id" = ${caller.projectId} AND "id" = ${id} FOR UPDATE`;
    if (!row) throw notFound(id);
    // Its open alert no longer has a rule to find it false: it is closed now.
    await tx.alert.updateMany({ where: { projectId: caller.projectId, ruleId: id, clearedAt: null }, data: { clearedAt: new Date() } });
    await tx.alertRule.delete({ where: { projectId_id: { projectId: caller.projectId, id } } });
    await recordAudit(tx, caller.projectId, actorOf(caller), {
      action: "alertRule.delete",
      target: { id, name: row.name },
      before: audited(row),
    });
  });
}
