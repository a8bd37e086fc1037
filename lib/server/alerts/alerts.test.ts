import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REVIEWER_FINDING_CODES, ZAlertList, ZAlertRule, ZAlertRules, ZAuditList, ZEvent, type TAlertRule } from "@/lib/contracts";
import { rebuild } from "@/lib/core/rebuild";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { alertsApi, auditApi, type AnyEndpoint } from "@/lib/endpoints";
import { createKey } from "@/lib/server/auth/keys";
import { useDatabase, type Database } from "@/lib/server/db";
import { routeOf } from "@/lib/server/http/api";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { testDatabases } from "@/lib/server/testing/databases";
import { evaluateAlerts, type DeliverySender } from "./evaluate";

/**
 * Alert rules on both databases: who may change them, what a bad rule is told, and the evaluation —
 * each value compared with a count made here from the core's own rebuild of the same events, not
 * with the rollups the evaluation reads. Webhook delivery through the durable queue and a real
 * receiver is lib/server/alerts/deliveries.test.ts.
 */

const ORIGIN = "http://127.0.0.1:3000";
const START = "2026-11-20T10:00:00.000Z";

describe.each(testDatabases())("alert rules on $name", (kind) => {
  let db: Database;
  let adminKey: string;
  let readKey: string;
  let otherKey: string;
  let projectA: string;
  /** The events of project A's runs, by run id (one of them live: no run.ended). */
  const runs = new Map<string, ReturnType<typeof generateEtfRun>["events"]>();
  /** Just after project A's last event: every window of 24 hours ending then holds all of it. */
  let after: Date;
  const sent: { projectId: string; deliveryId: string }[] = [];
  const send: DeliverySender = async (_tx, jobs) => void sent.push(...jobs);

  async function call(
    endpoint: AnyEndpoint,
    options: { body?: unknown; secret?: string; path?: Record<string, string>; query?: string } = {},
  ) {
    const path = endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(options.path?.[name] ?? ""));
    const response = await routeOf(endpoint)(
      new Request(`${ORIGIN}${path}${options.query ?? ""}`, {
        method: endpoint.method,
        headers: { authorization: `Bearer ${options.secret ?? adminKey}`, "content-type": "application/json" },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      }),
      { params: Promise.resolve(options.path ?? {}) },
    );
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }
  const create = async (body: unknown, secret?: string) => call(alertsApi.create, { body, secret });
  const made = async (body: unknown) => {
    const answer = await create(body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return ZAlertRule.parse(answer.body);
  };
  const alertsOf = async (rule: TAlertRule) =>
    ZAlertList.parse((await call(alertsApi.alerts, { query: `?ruleId=${rule.id}` })).body).alerts;

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    adminKey = (await createKey(db, "alerts-a", "lead key")).secret;
    readKey = (await createKey(db, "alerts-a", "reader", { scope: "read" })).secret;
    otherKey = (await createKey(db, "alerts-b")).secret;
    projectA = (await db.prisma.project.findUniqueOrThrow({ where: { name: "alerts-a" } })).id;
    for (const [runId, seed, live] of [
      ["al-1", 31, false],
      ["al-2", 32, true],
    ] as const) {
      // Event ids are unique per project: each run's get its run id in front.
      const events = generateEtfRun({ runId, seed, turns: 200, anomalies: true, startTime: START })
        .events.filter((e) => !live || e.type !== "run.ended")
        .map((e) => ({ ...e, id: `${runId}:${e.id}` }));
      runs.set(runId, events);
      for (let at = 0; at < events.length; at += 500) await ingestBatch(db, projectA, events.slice(at, at + 500));
    }
    await settleRebuilds(db);
    const last = Math.max(...[...runs.values()].flat().map((e) => Date.parse(e.ts)));
    after = new Date(last + 60_000);
  }, 120_000);
  afterAll(async () => db?.close());

  /** What the core's rebuild of project A's events says, counted here. */
  function coreCounts(key = "context") {
    let candidates = 0;
    let dropped = 0;
    const findings = new Map<string, number>();
    let violations = 0;
    for (const events of runs.values()) {
      const decisions = rebuild(events.map((e) => ZEvent.parse(e)));
      for (const turn of decisions.turns) {
        for (const r of turn.reminders.filter((r) => r.key === key)) {
          candidates++;
          if (r.status === "dropped") dropped++;
        }
      }
      for (const f of decisions.findings) {
        findings.set(f.code, (findings.get(f.code) ?? 0) + 1);
        if ((REVIEWER_FINDING_CODES as readonly string[]).includes(f.code)) violations++;
      }
    }
    return { candidates, dropped, findings, violations };
  }

  it("lets admins make, change and delete rules, each in the audit log without its secret; others get 403 or 404", async () => {
    const rule = await made({
      name: "Violations",
      condition: { kind: "reviewer_violations", threshold: 3, windowMinutes: 60 },
      webhookUrl: "https://hooks.example.com/x",
    });
    expect(rule.webhookSecret).toMatch(/^whsec_/);
    expect(rule.state).toBe("ok");
    // The secret is shown once: the list has its hint only.
    const listed = ZAlertRules.parse((await call(alertsApi.rules, { secret: readKey })).body).rules.find((r) => r.id === rule.id)!;
    expect(listed.webhookSecret).toBeNull();
    // So is the whole URL (a chat service's webhook path is a credential): readers see its origin.
    expect(rule.webhookUrl).toBe("https://hooks.example.com/x");
    expect(listed.webhookUrl).toBe("https://hooks.example.com/…");
    expect(rule.webhookSecret!.startsWith(listed.webhookSecretHint!.replace("…", ""))).toBe(true);

    // A read key reads but changes nothing; another project's key does not see the rule.
    const refused = await create({ name: "x", condition: { kind: "finding", code: "STAGE_MISMATCH", windowMinutes: 60 } }, readKey);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/admin/);
    expect((await call(alertsApi.update, { secret: readKey, path: { id: rule.id }, body: { enabled: false } })).status).toBe(403);
    expect((await call(alertsApi.update, { secret: otherKey, path: { id: rule.id }, body: { enabled: false } })).status).toBe(404);
    expect((await call(alertsApi.delete, { secret: otherKey, path: { id: rule.id } })).status).toBe(404);
    expect(ZAlertRules.parse((await call(alertsApi.rules, { secret: otherKey })).body).rules).toEqual([]);

    // A stale version is a 409; a silence is audited with before and after.
    const silenced = await call(alertsApi.update, {
      path: { id: rule.id },
      body: { silencedUntil: "2030-01-01T00:00:00.000Z", version: rule.version },
    });
    expect(silenced.status, JSON.stringify(silenced.body)).toBe(200);
    expect(silenced.body.silencedUntil).toBe("2030-01-01T00:00:00.000Z");
    expect((await call(alertsApi.update, { path: { id: rule.id }, body: { name: "late", version: rule.version } })).status).toBe(409);
    const rotated = await call(alertsApi.update, { path: { id: rule.id }, body: { rotateSecret: true } });
    expect(rotated.body.webhookSecret).toMatch(/^whsec_/);
    expect(rotated.body.webhookSecret).not.toBe(rule.webhookSecret);
    expect((await call(alertsApi.delete, { path: { id: rule.id } })).status).toBe(200);

    const log = ZAuditList.parse((await call(auditApi.list, { query: `?target=alertRule&targetId=${rule.id}` })).body).entries;
    expect(log.map((e) => e.action)).toEqual(["alertRule.delete", "alertRule.update", "alertRule.update", "alertRule.create"]);
    expect(log[2].before).toEqual({ silencedUntil: null });
    expect(log[2].after).toEqual({ silencedUntil: "2030-01-01T00:00:00.000Z" });
    expect(log[1].after).toEqual({ secretRotated: true });
    expect(JSON.stringify(log)).not.toContain("whsec_");
    expect(JSON.stringify(log)).not.toContain("hooks.example.com/x");
  });

  it.each([
    [{ name: "", condition: { kind: "finding", code: "STAGE_MISMATCH", windowMinutes: 60 } }, /name/],
    [{ name: "x", condition: { kind: "finding", code: "NOPE", windowMinutes: 60 } }, /finding code/],
    [{ name: "x", condition: { kind: "finding", code: "STAGE_MISMATCH", windowMinutes: 7 } }, /window of 15, 60, 360, 1440, 10080 minutes/],
    [{ name: "x", condition: { kind: "drop_rate", key: "context", threshold: 1.5, windowMinutes: 60 } }, /drop rate from 0 to 1/],
    [{ name: "x", condition: { kind: "meter_stage", meter: "context", stage: 0 } }, /stage from 1 to 100/],
    [{ name: "x", condition: { kind: "sometimes" } }, /kind is drop_rate/],
    [{ name: "x", condition: { kind: "meter_stage", meter: "context", stage: 1 }, webhookUrl: "ftp://example.com/x" }, /http or https/],
    [
      { name: "x", condition: { kind: "meter_stage", meter: "context", stage: 1 }, webhookUrl: "http://10.1.2.3/hook" },
      /CUESCOPE_WEBHOOK_ALLOW_PRIVATE/,
    ],
    [
      { name: "x", condition: { kind: "meter_stage", meter: "context", stage: 1 }, webhookUrl: "http://169.254.169.254/latest" },
      /CUESCOPE_WEBHOOK_ALLOW_PRIVATE/,
    ],
    [
      { name: "x", condition: { kind: "meter_stage", meter: "context", stage: 1 }, webhookUrl: `${ORIGIN}/api/v1/ingest` },
      /this server|itself/,
    ],
  ])("refuses a bad rule with a 400 naming what is wrong: %j", async (body, message) => {
    const answer = await create(body);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toMatch(message);
  });

  it("fires a drop-rate rule once with the core's counts, holds without a second alert, clears when the window passes, and fires again", async () => {
    // The key the core dropped most of.
    const key = (["requests", "time", "context", "edits", "review"] as const)
      .map((k) => ({ k, dropped: coreCounts(k).dropped }))
      .sort((a, b) => b.dropped - a.dropped)[0].k;
    const core = coreCounts(key);
    expect(core.dropped).toBeGreaterThan(0);
    const threshold = Math.max(0, core.dropped / core.candidates - 0.01);
    const rule = await made({
      name: "Context drops",
      condition: { kind: "drop_rate", key, threshold, minCandidates: 1, windowMinutes: 1440 },
      webhookUrl: "https://hooks.example.com/drops",
    });
    sent.length = 0;
    await evaluateAlerts(db, send, after);
    let alerts = await alertsOf(rule);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].value).toMatchObject({ dropped: core.dropped, candidates: core.candidates, holds: true });
    expect(alerts[0].summary).toContain(
      `${core.dropped.toLocaleString("en-US")} of ${core.candidates.toLocaleString("en-US")} ${key} candidates dropped`,
    );
    expect(alerts[0].runsHref).toBe("/runs?hasDrops=1");
    expect(alerts[0].clearedAt).toBeNull();
    // One delivery, its job sent in the transaction that made it.
    expect(sent.filter((j) => j.deliveryId === alerts[0].deliveries[0]?.id)).toHaveLength(1);
    expect(alerts[0].deliveries[0]).toMatchObject({ url: "https://hooks.example.com/…", state: "pending", attempts: [] });

    // Still true a minute later: no second alert, no second delivery.
    sent.length = 0;
    await evaluateAlerts(db, send, new Date(after.getTime() + 60_000));
    expect(await alertsOf(rule)).toHaveLength(1);
    expect(sent).toEqual([]);
    // The same condition sent back (a form saving the whole rule) does not restart it either.
    const resent = await call(alertsApi.update, {
      path: { id: rule.id },
      body: { condition: rule.condition, name: "Context drops (same)" },
    });
    expect(resent.body).toMatchObject({ state: "firing", alertId: alerts[0].id });
    await evaluateAlerts(db, send, new Date(after.getTime() + 120_000));
    expect(await alertsOf(rule)).toHaveLength(1);
    expect(sent).toEqual([]);

    // Two days on, the window holds nothing: cleared; back in the window, a new alert.
    const later = new Date(after.getTime() + 2 * 86_400_000);
    await evaluateAlerts(db, send, later);
    alerts = await alertsOf(rule);
    expect(alerts[0].clearedAt).toBe(later.toISOString());
    const current = ZAlertRules.parse((await call(alertsApi.rules)).body).rules.find((r) => r.id === rule.id)!;
    expect(current).toMatchObject({ state: "ok", alertId: null, lastValue: { candidates: 0, holds: false } });
    await evaluateAlerts(db, send, after);
    expect(await alertsOf(rule)).toHaveLength(2);
    await call(alertsApi.delete, { path: { id: rule.id } });
  });

  it("fires finding and violation rules on the core's counts, and not at the threshold itself", async () => {
    const core = coreCounts();
    const [code, count] = [...core.findings.entries()].sort((a, b) => b[1] - a[1])[0];
    expect(core.violations).toBeGreaterThan(0);
    const finding = await made({ name: "Finding", condition: { kind: "finding", code, windowMinutes: 1440 } });
    const above = await made({
      name: "Above",
      condition: { kind: "reviewer_violations", threshold: core.violations - 1, windowMinutes: 1440 },
    });
    const at = await made({ name: "At", condition: { kind: "reviewer_violations", threshold: core.violations, windowMinutes: 1440 } });
    const report = await evaluateAlerts(db, send, after);
    expect(report.failed).toBe(0);
    const [found] = await alertsOf(finding);
    expect(found.value).toMatchObject({ count, holds: true });
    expect(found.runsHref).toBe(`/runs?finding=${code}`);
    expect((await alertsOf(above))[0].value).toMatchObject({ count: core.violations, holds: true });
    expect(await alertsOf(at)).toEqual([]);
    // Another project's rules count only its own runs.
    const elsewhere = await call(alertsApi.create, {
      secret: otherKey,
      body: { name: "B", condition: { kind: "finding", code, windowMinutes: 1440 } },
    });
    expect(elsewhere.status).toBe(201);
    await evaluateAlerts(db, send, after);
    expect(ZAlertList.parse((await call(alertsApi.alerts, { secret: otherKey })).body).alerts).toEqual([]);
    for (const rule of [finding, above, at]) await call(alertsApi.delete, { path: { id: rule.id } });
  });

  it("fires a meter rule on the live run whose last turn's meter reached the stage, and a silenced rule sends nothing", async () => {
    // The live run's context stage on its last turn, from the core.
    const live = rebuild(runs.get("al-2")!.map((e) => ZEvent.parse(e)));
    const meters = live.turns.at(-1)!.meters;
    const stage = meters.requests?.stage ?? 0;
    expect(stage).toBeGreaterThan(0);
    const reached = await made({
      name: "Requests",
      condition: { kind: "meter_stage", meter: "requests", stage },
      webhookUrl: "https://hooks.example.com/m",
    });
    const beyond = await made({ name: "Beyond", condition: { kind: "meter_stage", meter: "requests", stage: stage + 1 } });
    await call(alertsApi.update, {
      path: { id: reached.id },
      body: { silencedUntil: new Date(after.getTime() + 3_600_000).toISOString() },
    });
    sent.length = 0;
    await evaluateAlerts(db, send, after);
    const [alert] = await alertsOf(reached);
    expect(alert.value).toMatchObject({ runs: 1, runIds: ["al-2"], holds: true });
    expect(alert.silenced).toBe(true);
    expect(alert.deliveries).toEqual([]);
    expect(sent).toEqual([]);
    expect(await alertsOf(beyond)).toEqual([]);
    // Changing the condition clears the open alert and starts afresh.
    await call(alertsApi.update, {
      path: { id: reached.id },
      body: { condition: { kind: "meter_stage", meter: "requests", stage: stage + 1 } },
    });
    expect((await alertsOf(reached))[0].clearedAt).not.toBeNull();
  });

  it("pages the alerts list newest first and exports it as CSV", async () => {
    const rule = await made({ name: "Pages", condition: { kind: "reviewer_violations", threshold: 0, windowMinutes: 1440 } });
    const later = new Date(after.getTime() + 2 * 86_400_000);
    for (let i = 0; i < 3; i++) {
      await evaluateAlerts(db, send, new Date(after.getTime() + i * 60_000));
      await evaluateAlerts(db, send, later);
    }
    const first = ZAlertList.parse((await call(alertsApi.alerts, { query: `?ruleId=${rule.id}&limit=2` })).body);
    expect(first.alerts).toHaveLength(2);
    const second = ZAlertList.parse(
      (await call(alertsApi.alerts, { query: `?ruleId=${rule.id}&limit=2&cursor=${first.nextCursor}` })).body,
    );
    expect(second.alerts).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    const firedAts = [...first.alerts, ...second.alerts].map((a) => a.firedAt);
    expect(firedAts).toEqual([...firedAts].sort().reverse());
    expect((await call(alertsApi.alerts, { query: "?cursor=nonsense" })).status).toBe(400);

    const csv = await routeOf(alertsApi.export)(
      new Request(`${ORIGIN}/api/v1/alerts/export?ruleId=${rule.id}`, { headers: { authorization: `Bearer ${readKey}` } }),
      { params: Promise.resolve({}) },
    );
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe(
      "id,rule_id,rule_name,condition,scope,fired_at,cleared_at,summary,value,silenced,runs_href,deliveries,delivered,failed,attempts",
    );
    expect(lines).toHaveLength(4);
  });
});
