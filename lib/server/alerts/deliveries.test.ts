import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhook, WEBHOOK_DELIVERY_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from "@/lib/alerts/webhook-signature";
import { createKey, type Caller } from "@/lib/server/auth/keys";
import { useDatabase, type Database } from "@/lib/server/db";
import { JobQueue, QUEUES } from "@/lib/server/jobs/queue";
import { testDatabases } from "@/lib/server/testing/databases";
import { deliverAlert } from "./deliver";
import { evaluateAlerts } from "./evaluate";
import { createRule } from "./rules";

/**
 * Webhook deliveries through the durable queue (pg-boss on the test's database) to a real HTTP
 * receiver on this machine that answers 500, resets the connection, or does not answer before 2xx:
 * each attempt is logged with its answer, retried with backoff, never sent again after a 2xx, and a
 * delivery left pending by a stopped process is sent by the next one.
 */

type Answer = 200 | 500 | "reset" | "silence";
type Received = { body: string; headers: IncomingMessage["headers"] };

/** A receiver that answers each request with the next of `script` (then 200), and records what it got. */
class Receiver {
  readonly got: Received[] = [];
  script: Answer[] = [];
  private server!: Server;
  url = "";

  async start(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        this.got.push({ body: Buffer.concat(chunks).toString(), headers: req.headers });
        const answer = this.script.shift() ?? 200;
        if (answer === "reset") req.socket.destroy();
        else if (answer === "silence")
          return; // never answers: the attempt times out
        else res.writeHead(answer, { "content-type": "text/plain" }).end(answer === 200 ? "ok" : "busy");
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.each(testDatabases())("alert webhook deliveries on $name", (kind) => {
  let db: Database;
  let caller: Caller;
  const receiver = new Receiver();
  const saved = { ...process.env };
  const openQueue = () =>
    JobQueue.open(db, {
      workers: 1,
      retryDelay: 1,
      handlers: { rebuild: async () => {}, deliverAlert: (job, attempts) => deliverAlert(db, job, attempts) },
    });

  beforeAll(async () => {
    // The receiver is on this machine: the operator's setting allows it (a rule's check otherwise refuses loopback).
    process.env.CUESCOPE_WEBHOOK_ALLOW_PRIVATE = "true";
    process.env.CUESCOPE_WEBHOOK_TIMEOUT_MS = "400";
    db = await kind.open();
    useDatabase(db);
    await createKey(db, "hooks");
    const project = await db.prisma.project.findUniqueOrThrow({ where: { name: "hooks" } });
    caller = { projectId: project.id, project: "hooks" };
    // One Reviewer violation in the current quarter hour, at every level of the rollups (what a rebuild's buckets would add).
    await db.prisma.$executeRaw`INSERT INTO "trend_rollups" ("project_id", "minutes", "bucket", "copy_version", "key", "n")
      SELECT ${project.id}, m, to_timestamp(floor(extract(epoch FROM now()) / (m * 60)) * m * 60), 'v', 'reviewerViolations', 1
        FROM unnest(ARRAY[15, 60, 360, 1440]) AS m`;
    await receiver.start();
  }, 60_000);
  afterAll(async () => {
    process.env = saved;
    await receiver.stop();
    await db?.close();
  });

  /** A rule that holds (more than 0 Reviewer violations in the last hour: beforeAll stored one), fired now; its delivery. */
  async function fire(queue: JobQueue): Promise<{ ruleSecret: string; deliveryId: string }> {
    const rule = await createRule(db, caller, {
      name: `violations ${receiver.got.length}`,
      condition: { kind: "reviewer_violations", threshold: 0, windowMinutes: 60 },
      scope: {},
      webhookUrl: receiver.url,
      enabled: true,
    });
    await evaluateAlerts(db, (tx, jobs) => queue.sendAlertDeliveries(tx, jobs));
    const delivery = await db.prisma.alertDelivery.findFirstOrThrow({ where: { projectId: caller.projectId, alert: { ruleId: rule.id } } });
    // Off from here: the next test's evaluation fires only its own rule.
    await db.prisma.alertRule.update({ where: { projectId_id: { projectId: caller.projectId, id: rule.id } }, data: { enabled: false } });
    return { ruleSecret: rule.webhookSecret!, deliveryId: delivery.id };
  }

  const attemptsOf = (deliveryId: string) =>
    db.prisma.alertDelivery.findUniqueOrThrow({
      where: { projectId_id: { projectId: caller.projectId, id: deliveryId } },
      include: { answers: { orderBy: { attempt: "asc" } } },
    });

  it("retries 500, a reset and a timeout with backoff, logs each answer, and sends nothing after the 2xx", async () => {
    const queue = await openQueue();
    try {
      // A process that works the queue keeps the every-minute evaluation on pg-boss's schedule.
      expect((await queue.boss.getSchedules()).map((s) => [s.name, s.cron])).toContainEqual([QUEUES.alertEvaluation, "* * * * *"]);
      receiver.script = [500, "reset", "silence", 200];
      const before = receiver.got.length;
      const { ruleSecret, deliveryId } = await fire(queue);
      const done = await until(
        () => attemptsOf(deliveryId),
        (d) => d.state !== "pending",
      );
      expect(done.state).toBe("delivered");
      expect(done.answers.map((a) => [a.attempt, a.status])).toEqual([
        [1, 500],
        [2, null],
        [3, null],
        [4, 200],
      ]);
      expect(done.answers[1].error).toMatch(/reset/);
      expect(done.answers[2].error).toMatch(/no answer within/);
      expect(done.answers[3].responseExcerpt).toBe("ok");
      // Backoff: each retry waited longer than the one before it (pg-boss: between d·2^k and d·2^(k+1) s, d = 1).
      const gaps = done.answers.slice(1).map((a, i) => a.at.getTime() - done.answers[i].at.getTime());
      expect(gaps[0]).toBeGreaterThanOrEqual(900);
      expect(gaps[2]).toBeGreaterThanOrEqual(gaps[0]);

      const got = receiver.got.slice(before);
      expect(got).toHaveLength(4);
      for (const request of got) {
        expect(request.body).toBe(got[0].body);
        expect(request.headers[WEBHOOK_DELIVERY_HEADER.toLowerCase()]).toBe(deliveryId);
        const verdict = verifyWebhook({
          secret: ruleSecret,
          body: request.body,
          timestamp: request.headers[WEBHOOK_TIMESTAMP_HEADER.toLowerCase()] as string,
          signature: request.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] as string,
          now: new Date(),
        });
        expect(verdict).toEqual({ ok: true });
      }
      expect(JSON.parse(got[0].body)).toMatchObject({ text: expect.stringContaining("Open the runs"), cuescope: { event: "alert.fired" } });

      // The job again (a retry after a crash): the delivery is not sent twice.
      await deliverAlert(db, { projectId: caller.projectId, deliveryId }, { retryCount: 0, retryLimit: 8 });
      await queue.boss.send(QUEUES.alertDelivery, { projectId: caller.projectId, deliveryId });
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(receiver.got.length - before).toBe(4);
      expect((await attemptsOf(deliveryId)).answers).toHaveLength(4);
    } finally {
      await queue.close();
    }
  }, 90_000);

  it("sends a delivery left pending by a stopped process once the next one starts", async () => {
    let queue = await openQueue();
    receiver.script = [500];
    const before = receiver.got.length;
    const { deliveryId } = await fire(queue);
    await until(
      () => attemptsOf(deliveryId),
      (d) => d.answers.length >= 1,
    );
    await queue.close();
    expect((await attemptsOf(deliveryId)).state).toBe("pending");

    queue = await openQueue();
    try {
      const done = await until(
        () => attemptsOf(deliveryId),
        (d) => d.state !== "pending",
      );
      expect(done.answers.map((a) => a.status)).toEqual([500, 200]);
      expect(receiver.got.length - before).toBe(2);
    } finally {
      await queue.close();
    }
  }, 90_000);
});
