import { describe, expect, it } from "vitest";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { ProjectLimits } from "./project-limits";
import type { StoredEventRow } from "@/lib/server/db/json-columns";
import { TaskMemoryError, transferableBuffers } from "./threads";
import { taskThreads } from "@/lib/server/background/tasks";

/** A generated run as stored rows (what the rebuild job reads), bodies as JSON text. */
function storedRows(turns: number, seed = 3): { runId: string; rows: StoredEventRow[]; eventCount: number } {
  const { events } = generateEtfRun({ seed, turns, anomalies: true });
  const rows = events.map((e, i) => ({
    seq: String(i + 1),
    eventId: e.id,
    type: e.type,
    ts: e.ts,
    turn: "turn" in e && typeof e.turn === "number" ? e.turn : null,
    body: JSON.stringify(e.body),
  }));
  return { runId: events[0].runId, rows, eventCount: rows.length };
}

describe("job threads", () => {
  it("give the same rebuild on a worker thread as inline, and keep serving after a task fails", async () => {
    const input = storedRows(120);
    const threads = taskThreads(1);
    try {
      const onThread = await threads.run("rebuild", input);
      const inline = await taskThreads(0).run("rebuild", input);
      expect(onThread.ok).toBe(true);
      expect(onThread).toEqual(inline);
      // A run whose stored body no longer parses: an answer, not a crash.
      const broken = { ...input, rows: input.rows.map((row, i) => (i === 5 ? { ...row, body: '{"used":"many"}' } : row)) };
      const failed = await threads.run("rebuild", broken);
      expect(failed).toMatchObject({ ok: false, error: expect.stringMatching(/events.*body/) });
      expect(await threads.run("rebuild", input)).toEqual(inline);
    } finally {
      await threads.close();
    }
  }, 60_000);

  it("hand over the buffers they are told to transfer (emptied here), and copy the others", async () => {
    const input = storedRows(20);
    const inline = await taskThreads(0).run("rebuild", input);
    const threads = taskThreads(1);
    try {
      const owned = new Uint8Array(64);
      const kept = new Uint8Array(64);
      const answer = await threads.run("rebuild", { ...input, extra: [owned, kept] } as typeof input, transferableBuffers([owned, owned]));
      expect(answer).toEqual(inline);
      expect(owned.byteLength).toBe(0); // transferred: detached on this side
      expect(kept.byteLength).toBe(64);
    } finally {
      await threads.close();
    }
    // A view into a larger buffer (a pooled Buffer's) is never transferred: that would empty the rest.
    const pool = new ArrayBuffer(256);
    const whole = new Uint8Array(8);
    expect(transferableBuffers([new Uint8Array(pool, 0, 16), new Uint8Array(pool, 16, 240), whole, whole])).toEqual([whole.buffer]);
  }, 60_000);

  it("start every thread when warmed, before any task, and serve tasks on those same threads", async () => {
    const threads = taskThreads(2);
    try {
      expect(threads.startedThreads).toBe(0);
      threads.warm();
      expect(threads.startedThreads).toBe(2);
      threads.warm(); // already warm: no more threads
      expect(threads.startedThreads).toBe(2);
      const input = storedRows(20);
      const answers = await Promise.all([threads.run("rebuild", input), threads.run("rebuild", input), threads.run("rebuild", input)]);
      expect(answers.every((answer) => answer.ok === true)).toBe(true);
      expect(threads.startedThreads).toBe(2);
    } finally {
      await threads.close();
    }
  }, 60_000);

  it("fail a task that outgrows the thread's heap with an error that says so, and replace the thread", async () => {
    const threads = taskThreads(1, 24);
    try {
      const big = storedRows(4_000, 5);
      await expect(threads.run("rebuild", big)).rejects.toBeInstanceOf(TaskMemoryError);
      const small = storedRows(20);
      expect((await threads.run("rebuild", small)).ok).toBe(true);
    } finally {
      await threads.close();
    }
  }, 120_000);
});

describe("project limits", () => {
  /** A task that runs until released, recording when it started. */
  function gate(log: string[], name: string) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    return { release, task: () => (log.push(name), released) };
  }

  it.each([
    { limit: 1, firstWave: ["a1", "b1"] },
    { limit: 2, firstWave: ["a1", "a2", "b1"] },
  ])("run at most $limit of one project at once, never holding up another project", async ({ limit, firstWave }) => {
    const limits = new ProjectLimits(limit);
    const log: string[] = [];
    const tasks = { a1: gate(log, "a1"), a2: gate(log, "a2"), a3: gate(log, "a3"), b1: gate(log, "b1") };
    const done = [
      limits.run("A", tasks.a1.task),
      limits.run("A", tasks.a2.task),
      limits.run("A", tasks.a3.task),
      limits.run("B", tasks.b1.task),
    ];
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(log.sort()).toEqual(firstWave);
    expect(limits.active("A")).toBe(limit);
    for (const t of Object.values(tasks)) t.release();
    await Promise.all(done);
    expect(log.sort()).toEqual(["a1", "a2", "a3", "b1"]);
    expect(limits.active("A")).toBe(0);
  });
});
