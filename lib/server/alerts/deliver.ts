import { webhookHeaders } from "@/lib/alerts/webhook-signature";
import type { Database } from "@/lib/server/db";
import { env } from "@/lib/server/env";
import { postWebhook } from "./post-webhook";
import { webhookPolicy } from "./rules";
import { checkWebhookTarget } from "./webhook-target";

/**
 * One attempt of an alert's webhook delivery: the job of the durable queue's alert-delivery queue
 * (lib/server/jobs/queue.ts), retried with backoff by the queue while it throws (docs/alerts.md#deliveries).
 * Each attempt's answer is logged. A delivery that has had a 2xx is never sent again, whatever the
 * queue does (a job retried after its process died, or expired): the attempt reads its state first.
 */

export interface DeliveryJob {
  projectId: string;
  deliveryId: string;
}

/** The queue's view of the job: how many retries it has had and may have. */
export interface Attempts {
  retryCount: number;
  retryLimit: number;
}

export class DeliveryFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DeliveryFailed";
  }
}

/**
 * Sends the delivery once and logs the answer. Throws DeliveryFailed (so the queue retries later)
 * after a failed answer while retries are left; after the last one, the delivery is marked failed.
 */
export async function deliverAlert(db: Database, job: DeliveryJob, attempts: Attempts, now = () => new Date()): Promise<void> {
  const delivery = await db.prisma.alertDelivery.findUnique({
    where: { projectId_id: { projectId: job.projectId, id: job.deliveryId } },
    include: { alert: { select: { ruleId: true } } },
  });
  // Gone with its project or alert, or already delivered (or given up): nothing to send.
  if (!delivery || delivery.state !== "pending") return;
  const rule = delivery.alert.ruleId
    ? await db.prisma.alertRule.findUnique({
        where: { projectId_id: { projectId: job.projectId, id: delivery.alert.ruleId } },
        select: { webhookUrl: true, webhookSecret: true },
      })
    : null;
  const attempt = delivery.attempts + 1;
  const last = attempts.retryCount >= attempts.retryLimit;
  const at = now();

  // The rule's webhook now: deleted, removed or changed since the alert fired means not sent.
  const gone =
    !rule || !rule.webhookUrl || !rule.webhookSecret
      ? "the rule or its webhook was deleted before the delivery was sent"
      : rule.webhookUrl !== delivery.url
        ? "the rule's webhook URL changed before the delivery was sent"
        : null;
  if (gone) {
    await record(db, job, attempt, at, { ok: false, status: null, error: gone, durationMs: 0, responseExcerpt: null }, true);
    return;
  }
  // The operator's setting may have changed since the rule was saved.
  const policy = webhookPolicy();
  const target = checkWebhookTarget(delivery.url, policy);
  if (!target.ok) {
    await record(db, job, attempt, at, { ok: false, status: null, error: target.error, durationMs: 0, responseExcerpt: null }, true);
    return;
  }
  const answer = await postWebhook({
    url: delivery.url,
    body: delivery.body,
    headers: webhookHeaders(rule!.webhookSecret!, delivery.id, delivery.body, at),
    timeoutMs: env("CUESCOPE_WEBHOOK_TIMEOUT_MS"),
    allowPrivate: policy.allowPrivate,
  });
  await record(db, job, attempt, at, answer, last);
  if (!answer.ok && !last) throw new DeliveryFailed(`webhook attempt ${attempt} failed: ${answer.error ?? `HTTP ${answer.status}`}`);
}

/** Logs an attempt's answer and moves the delivery on: delivered on a 2xx, failed after the last attempt. */
async function record(
  db: Database,
  job: DeliveryJob,
  attempt: number,
  at: Date,
  answer: { ok: boolean; status: number | null; error: string | null; durationMs: number; responseExcerpt: string | null },
  last: boolean,
): Promise<void> {
  const state = answer.ok ? "delivered" : last ? "failed" : "pending";
  await db.prisma.$transaction([
    db.prisma.alertDeliveryAttempt.create({
      data: {
        projectId: job.projectId,
        deliveryId: job.deliveryId,
        attempt,
        at,
        status: answer.status,
        error: answer.error,
        durationMs: Math.round(answer.durationMs),
        responseExcerpt: answer.responseExcerpt,
      },
    }),
    db.prisma.alertDelivery.update({
      where: { projectId_id: { projectId: job.projectId, id: job.deliveryId } },
      data: { attempts: attempt, state, finishedAt: state === "pending" ? null : new Date() },
    }),
  ]);
}
