import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { rebuild } from "@/lib/core";
import { ZEvent } from "@/lib/contracts";
import { createKey } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { getDecisions } from "@/lib/server/runs/run-reads";
import { endedEvent, smallRun, startedEvent, turnEvents } from "@/lib/server/testing/events";
import { testDatabases } from "@/lib/server/testing/databases";
import { startBackground, type Background } from "@/lib/server/background/background";
import { ingestBatch } from "./ingest-batch";
import { taskThreads } from "@/lib/server/background/tasks";

describe.each(testDatabases())("ingestion on $name", (kind) => {
  let db: Database;
  let background: Background;
  let projectId: string;
  let runCounter = 0;
  const nextRunId = () => `run-${kind.name}-${++runCounter}`;

  beforeAll(async () => {
    db = await kind.open();
    await createKey(db, "acme");
    projectId = (await db.prisma.project.findUniqueOrThrow({ where: { name: "acme" } })).id;
    // A worker on the queue, as the server runs one: reads of decisions wait for its rebuilds.
    background = await startBackground(db, { workers: 1, threads: taskThreads(0) });
  }, 60_000);
  afterAll(async () => {
    await background?.close();
    await db?.close();
  });

  const storedCount = (runId: string) => db.prisma.event.count({ where: { projectId, run: { runId } } });

  it("stores a batch and treats an identical re-send as duplicate, changing nothing", async () => {
    const runId = nextRunId();
    const events = smallRun(runId, 3);
    const first = await ingestBatch(db, projectId, events);
    expect(first.summary).toEqual({ created: events.length, duplicate: 0, error: 0 });
    expect(first.results.map((r) => r.id)).toEqual(events.map((e) => e.id));

    // same content, other key order: still the same JSON value
    const reordered = events.map((e) => Object.fromEntries(Object.entries(e).reverse()));
    const again = await ingestBatch(db, projectId, reordered);
    expect(again.summary).toEqual({ created: 0, duplicate: events.length, error: 0 });
    expect(await storedCount(runId)).toBe(events.length);
    const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId } } });
    expect(run).toMatchObject({ eventCount: events.length, maxTurn: 2, status: "completed", agent: "etf-agent" });
  });

  it("stores as content hash the sha256 of the event's JSON as sent, keys sorted at every level, unknown properties included", async () => {
    const runId = nextRunId();
    const sent = JSON.parse(
      `{"type":"meter.requests","turn":0,"ts":"2026-11-29T10:00:05.120Z","runId":"${runId}","id":"${runId}-h","body":{"used":5},"zz":{"b":[1,{"y":"é","x":null}],"a":"😀"}}`,
    );
    expect((await ingestBatch(db, projectId, [sent])).summary).toEqual({ created: 1, duplicate: 0, error: 0 });
    const canonical = `{"body":{"used":5},"id":"${runId}-h","runId":"${runId}","ts":"2026-11-29T10:00:05.120Z","turn":0,"type":"meter.requests","zz":{"a":"😀","b":[1,{"x":null,"y":"é"}]}}`;
    const stored = await db.prisma.event.findFirstOrThrow({ where: { projectId, eventId: `${runId}-h` }, select: { contentHash: true } });
    expect(stored.contentHash).toBe(createHash("sha256").update(canonical, "utf8").digest("hex"));
  });

  it("stores each event once when identical batches arrive concurrently", async () => {
    const runId = nextRunId();
    const events = smallRun(runId, 20);
    const answers = await Promise.all([
      ingestBatch(db, projectId, events),
      ingestBatch(db, projectId, events),
      ingestBatch(db, projectId, events),
    ]);
    expect(await storedCount(runId)).toBe(events.length);
    for (let i = 0; i < events.length; i++) {
      const statuses = answers.map((a) => a.results[i].status).sort();
      expect(statuses).toEqual(["created", "duplicate", "duplicate"]);
    }
    const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId } } });
    expect(run.eventCount).toBe(events.length);
  });

  it("answers a reused id with other content as a conflict and keeps the stored event", async () => {
    const runId = nextRunId();
    const [start, meter] = [startedEvent(runId), turnEvents(runId, 0, 5, 100)[0]];
    await ingestBatch(db, projectId, [start, meter]);
    const changed = { ...meter, body: { used: 99 } };
    const answer = await ingestBatch(db, projectId, [changed]);
    expect(answer.results[0]).toMatchObject({ id: meter.id, status: "error", error: { path: "id" } });
    expect(answer.results[0].error!.message).toMatch(/conflict/);
    const stored = await db.prisma.event.findFirstOrThrow({ where: { projectId, eventId: String(meter.id) } });
    expect(stored.body).toEqual({ used: 5 });

    // inside one batch too: the first wins, the second is a conflict, an exact repeat a duplicate
    const t1 = turnEvents(runId, 1, 7, 100)[0];
    const inBatch = await ingestBatch(db, projectId, [t1, { ...t1, body: { used: 8 } }, { ...t1 }]);
    expect(inBatch.results.map((r) => r.status)).toEqual(["created", "error", "duplicate"]);
  });

  it("keeps the experiment and arm a run.started names on the run (contract §10), and null for a v1 start without one", async () => {
    const inExperiment = nextRunId();
    const plain = nextRunId();
    const lateStart = nextRunId();
    const experiment = { id: "exp_requests_copy", arm: "shorter" };
    await ingestBatch(db, projectId, [startedEvent(inExperiment, undefined, { experiment }), ...turnEvents(inExperiment, 0, 5, 100)]);
    await ingestBatch(db, projectId, smallRun(plain, 2));
    // The run exists before its start arrives: the start's experiment still reaches the run.
    await ingestBatch(db, projectId, turnEvents(lateStart, 0, 5, 100));
    await ingestBatch(db, projectId, [startedEvent(lateStart, undefined, { experiment: { id: "exp-b", arm: "holdout" } })]);
    // A second start naming another arm is refused and changes nothing.
    await ingestBatch(db, projectId, [startedEvent(inExperiment, `${inExperiment}-again`, { experiment: { id: "exp-x", arm: "other" } })]);
    const columns = async (runId: string) =>
      db.prisma.run.findUniqueOrThrow({
        where: { projectId_runId: { projectId, runId } },
        select: { experimentId: true, experimentArm: true, agent: true },
      });
    expect(await columns(inExperiment)).toEqual({ experimentId: "exp_requests_copy", experimentArm: "shorter", agent: "etf-agent" });
    expect(await columns(plain)).toEqual({ experimentId: null, experimentArm: null, agent: "etf-agent" });
    expect(await columns(lateStart)).toEqual({ experimentId: "exp-b", experimentArm: "holdout", agent: "etf-agent" });
  });

  it("refuses a second run.started for a run, keeping the first", async () => {
    const runId = nextRunId();
    const first = startedEvent(runId);
    await ingestBatch(db, projectId, [first]);
    const answer = await ingestBatch(db, projectId, [startedEvent(runId, `${runId}-again`), { ...first }]);
    expect(answer.results[0]).toMatchObject({ status: "error", error: { path: "type" } });
    expect(answer.results[0].error!.message).toMatch(/already started/);
    expect(answer.results[1].status).toBe("duplicate");
    expect(await storedCount(runId)).toBe(1);
  });

  it("answers each event of a batch mixing new, duplicate, conflicting, refused and invalid events, on a known run and a new one", async () => {
    const known = nextRunId();
    const fresh = nextRunId();
    const [t0, t1] = [turnEvents(known, 0, 5, 100), turnEvents(known, 1, 9, 200)];
    await ingestBatch(db, projectId, [startedEvent(known), ...t0]);
    const stored = vi.fn();
    const answer = await ingestBatch(
      db,
      projectId,
      [
        t1[0], // new, on the known run
        { ...t0[0] }, // duplicate of a stored event
        { ...t0[1], body: { requiredBytes: 1 } }, // conflict with a stored event
        startedEvent(known, `${known}-restart`), // a second run.started for the known run
        { ...t1[1], turn: -1 }, // invalid
        startedEvent(fresh), // new, on a new run
        ...turnEvents(fresh, 0, 3, 100), // new
        { ...t1[0] }, // repeat inside the batch
        endedEvent(known, "failed"), // new
      ],
      { onStored: stored },
    );
    expect(answer.results.map((r) => r.status)).toEqual([
      "created",
      "duplicate",
      "error",
      "error",
      "error",
      "created",
      "created",
      "created",
      "created",
      "duplicate",
      "created",
    ]);
    expect(answer.results[2].error).toMatchObject({ path: "id", message: expect.stringMatching(/conflict/) });
    expect(answer.results[3].error).toMatchObject({
      path: "type",
      message: expect.stringContaining(`already started with event "${known}-start"`),
    });
    expect(answer.results[4].error).toMatchObject({ path: "turn" });
    expect(answer.summary).toEqual({ created: 6, duplicate: 2, error: 3 });

    const runs = await db.prisma.run.findMany({ where: { projectId, runId: { in: [known, fresh] } }, orderBy: { runId: "asc" } });
    const byRunId = new Map(runs.map((r) => [r.runId, r]));
    expect(byRunId.get(known)).toMatchObject({ eventCount: 6, maxTurn: 1, status: "failed", agent: "etf-agent" });
    expect(byRunId.get(fresh)).toMatchObject({ eventCount: 4, maxTurn: 0, status: "live", agent: "etf-agent" });
    expect(await storedCount(known)).toBe(6);
    expect(await storedCount(fresh)).toBe(4);
    // The rebuild hook hears of both runs once; a batch storing nothing new calls it not at all.
    expect(stored).toHaveBeenCalledTimes(1);
    expect([...stored.mock.calls[0][0]].sort()).toEqual(runs.map((r) => r.id).sort());
    const again = vi.fn();
    await ingestBatch(db, projectId, [t1[0], startedEvent(fresh)], { onStored: again });
    expect(again).not.toHaveBeenCalled();
  });

  it("refuses the second of two different run.started events in one batch, naming the first", async () => {
    const runId = nextRunId();
    const [first, second] = [startedEvent(runId, `${runId}-b`), startedEvent(runId, `${runId}-a`)];
    const answer = await ingestBatch(db, projectId, [first, second]);
    expect(answer.results[0].status).toBe("created");
    expect(answer.results[1]).toMatchObject({ status: "error", error: { path: "type" } });
    expect(answer.results[1].error!.message).toContain(`already started with event ${JSON.stringify(first.id)}`);
    // Once one is stored, a batch with two others refuses both, naming the stored one.
    const later = await ingestBatch(db, projectId, [startedEvent(runId, `${runId}-c`), { ...first }, startedEvent(runId, `${runId}-d`)]);
    expect(later.results.map((r) => r.status)).toEqual(["error", "duplicate", "error"]);
    for (const refused of [later.results[0], later.results[2]])
      expect(refused.error!.message).toContain(`already started with event ${JSON.stringify(first.id)}`);
  });

  it("stores the valid events of a partly bad batch and names each problem", async () => {
    const runId = nextRunId();
    const [a, b, c] = turnEvents(runId, 0, 5, 100);
    const answer = await ingestBatch(db, projectId, [
      startedEvent(runId),
      { ...a, turn: "three" },
      b,
      { ...c, type: "request.sent" },
      "not an event",
      { ...c, id: `${runId}-x`, body: { outcome: "ok", reminders: [{ key: "edits", stage: -2 }] } },
    ]);
    expect(answer.summary).toEqual({ created: 2, duplicate: 0, error: 4 });
    expect(answer.results[1]).toEqual({
      id: a.id,
      status: "error",
      error: { path: "turn", message: 'expected integer >= 0, got "three"' },
    });
    expect(answer.results[3].error).toMatchObject({ path: "type" });
    expect(answer.results[4]).toMatchObject({ id: null, status: "error", error: { path: "" } });
    expect(answer.results[5].error).toMatchObject({ path: "body.reminders.0.stage" });
    expect(await storedCount(runId)).toBe(2);
  });

  it("stores context parts (contract §11), refuses bad ones per event naming the field, and the rebuild passes them through", async () => {
    const runId = nextRunId();
    const [, final0, submitted0] = turnEvents(runId, 0, 2, 5000);
    const [, final1, submitted1] = turnEvents(runId, 1, 5, 6000);
    const answer = await ingestBatch(db, projectId, [
      startedEvent(runId),
      {
        ...final0,
        body: {
          requiredBytes: 5000,
          providerTokens: 1300,
          providerCachedTokens: 1000,
          contextParts: { system: 1200, history: 3000, images: 4 },
        },
      },
      submitted0,
      { ...final1, body: { requiredBytes: 6000, contextParts: { history: -5 } } },
      { ...final1, id: `${runId}-over`, body: { requiredBytes: 6000, contextParts: { system: 1200, history: 5000 } } },
      { ...final1, id: `${runId}-cached`, body: { requiredBytes: 6000, providerTokens: 10, providerCachedTokens: 11 } },
      submitted1,
      endedEvent(runId),
    ]);
    expect(answer.results.map((r) => r.error ?? r.status)).toEqual([
      "created",
      "created",
      "created",
      { path: "body.contextParts.history", message: "expected integer >= 0, got -5" },
      { path: "body.contextParts", message: "the parts sum to 6200 bytes, more than requiredBytes (6000)" },
      { path: "body.providerCachedTokens", message: "11 cached tokens is more than providerTokens (10)" },
      "created",
      "created",
    ]);
    const decisions = await getDecisions(db, projectId, runId);
    // The unknown part was not stored; turn 1 has no request.final, so it is skipped.
    expect(decisions.turns.map((t) => [t.turn, t.contextParts])).toEqual([[0, { system: 1200, history: 3000 }]]);
  });

  it("gives the same decisions for out-of-order arrival in any batch split as for in-order arrival", async () => {
    const inOrder = nextRunId();
    const events = smallRun(inOrder, 15);
    await ingestBatch(db, projectId, events);

    const shuffledRun = nextRunId();
    const renamed = smallRun(shuffledRun, 15);
    const shuffled = [...renamed].sort((x, y) => hash(String(x.id)) - hash(String(y.id)));
    for (let i = 0; i < shuffled.length; i += 7) await ingestBatch(db, projectId, shuffled.slice(i, i + 7));
    await ingestBatch(db, projectId, shuffled.slice(3, 11)); // a duplicate delivery on top

    const a = await getDecisions(db, projectId, inOrder);
    const b = await getDecisions(db, projectId, shuffledRun);
    expect(b.turns).toEqual(a.turns);
    expect(b.findings).toEqual(a.findings);
    // and it is what the core says for the original events
    expect(a).toEqual(rebuild(events.map((e) => ZEvent.parse(e))));
  });

  it("rebuilds the cached decisions when the run gets a new event", async () => {
    const runId = nextRunId();
    const events = smallRun(runId, 4);
    await ingestBatch(db, projectId, events.slice(0, -1));
    const before = await getDecisions(db, projectId, runId);
    expect(before.turns).toHaveLength(4);
    await ingestBatch(db, projectId, turnEvents(runId, 4, 30, 9000));
    const after = await getDecisions(db, projectId, runId);
    expect(after.turns).toHaveLength(5);
    expect(after.turns[4].meters.requests?.stage).toBe(2);
  });
});

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}
