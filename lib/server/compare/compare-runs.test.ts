import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZEvent, type TEvent, type TTurnDecision } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { authenticate, createKey } from "@/lib/server/auth/keys";
import { taskThreads } from "@/lib/server/background/tasks";
import type { Database } from "@/lib/server/db";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { rebuildRun } from "@/lib/server/rebuild/rebuild-run";
import { testDatabases } from "@/lib/server/testing/databases";
import { compareRuns } from "./compare-runs";

/**
 * The turns where two event sets' rebuilt decisions differ, worked out here turn by turn from the
 * core's output: a turn only one rebuilt, or other reminders (key, subject, kind, stage, status) or
 * another Reviewer candidate or admission. Only turns up to the shorter run's last.
 */
function differingTurns(a: readonly TEvent[], b: readonly TEvent[]): number[] {
  const [da, db] = [rebuild(a), rebuild(b)];
  const last = Math.min(da.turns.at(-1)!.turn, db.turns.at(-1)!.turn);
  const view = (t: TTurnDecision | undefined) =>
    t && {
      reminders: t.reminders.map(({ key, subject, kind, stage, status }) => ({ key, subject, kind, stage, status })),
      reviewer: t.reviewer,
    };
  const byTurn = (turns: readonly TTurnDecision[]) => new Map(turns.map((t) => [t.turn, t]));
  const [ma, mb] = [byTurn(da.turns), byTurn(db.turns)];
  const out: number[] = [];
  for (let turn = 0; turn <= last; turn++) if (JSON.stringify(view(ma.get(turn))) !== JSON.stringify(view(mb.get(turn)))) out.push(turn);
  return out;
}

describe.each(testDatabases())("run comparison on $name", (kind) => {
  let db: Database;
  let projectId: string;
  let otherProjectId: string;
  const threads = taskThreads(0);
  const events: Record<string, TEvent[]> = {};

  /** Ingests a run's events under `runId` and rebuilds it. */
  async function store(project: string, runId: string, raw: readonly Record<string, unknown>[]) {
    const renamed = raw.map((e) => ({ ...e, runId, id: `${runId}:${e.id}` }));
    const answer = await ingestBatch(db, project, renamed);
    expect(answer.results.filter((r) => r.status === "error")).toEqual([]);
    events[runId] = renamed.map((e) => ZEvent.parse(e));
    const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId: project, runId } } });
    await rebuildRun(db, threads, project, run.id);
  }

  beforeAll(async () => {
    db = await kind.open();
    projectId = (await authenticate(db, `Bearer ${(await createKey(db, "compare")).secret}`)).projectId;
    otherProjectId = (await authenticate(db, `Bearer ${(await createKey(db, "compare-other")).secret}`)).projectId;
    // 700 turns: three buckets of digests. B is A with turn 600's request.final lost (turn 600 skipped),
    // C is A under another copy (other words, the same decisions), D another seed (differs early).
    const a = generateEtfRun({ seed: 5, turns: 700, anomalies: true }).events;
    await store(projectId, "cmp-a", a);
    await store(
      projectId,
      "cmp-b",
      a.filter((e) => !(e.type === "request.final" && e.turn === 600)),
    );
    const started = a[0] as { body: Record<string, unknown> };
    const copy = { requests: { "*": "Only {remaining} requests are left ({percent}% used)." } };
    await store(projectId, "cmp-c", [{ ...a[0], body: { ...started.body, copy } }, ...a.slice(1)]);
    await store(projectId, "cmp-d", generateEtfRun({ seed: 6, turns: 650 }).events);
    await store(otherProjectId, "cmp-other", a.slice(0, 200));
  }, 180_000);
  afterAll(async () => db?.close());

  it("finds a late first difference from the digests, and the same turns a turn-by-turn comparison finds", async () => {
    const expected = differingTurns(events["cmp-a"], events["cmp-b"]);
    expect(expected[0]).toBe(600);
    const first = await compareRuns(db, projectId, { a: "cmp-a", b: "cmp-b", direction: "next" });
    expect(first).toMatchObject({
      a: "cmp-a",
      b: "cmp-b",
      ready: true,
      commonTurns: [0, 699],
      lastTurns: { a: 699, b: 699 },
      first: 600,
      turn: 600,
    });
    expect(first.decisions).toMatchObject({ b: null, difference: "only-a" });
    expect(first.decisions!.a!.turn).toBe(600);
    // Stepping with next from before the run and then from each difference visits exactly the expected turns.
    const visited: number[] = [];
    for (let at: number | null = first.turn; at !== null;) {
      visited.push(at);
      at = (await compareRuns(db, projectId, { a: "cmp-a", b: "cmp-b", turn: at, direction: "next" })).turn;
    }
    expect(visited).toEqual(expected);
    const back = await compareRuns(db, projectId, { a: "cmp-a", b: "cmp-b", turn: 650, direction: "previous" });
    expect(back.turn).toBe([...expected].reverse().find((t) => t < 650) ?? null);
  });

  it("says two runs that decided the same under other wording do not differ", async () => {
    expect(differingTurns(events["cmp-a"], events["cmp-c"])).toEqual([]);
    const same = await compareRuns(db, projectId, { a: "cmp-a", b: "cmp-c", direction: "next" });
    expect(same).toMatchObject({ ready: true, first: null, turn: null, decisions: null });
    // At a chosen turn both decisions are given, the same, in other words.
    const turn = rebuild(events["cmp-a"]).turns.find((t) => t.reminders.some((r) => r.key === "requests"))!.turn;
    const at = await compareRuns(db, projectId, { a: "cmp-a", b: "cmp-c", turn, direction: "at" });
    expect(at.decisions?.difference).toBe("same");
    expect(at.decisions?.a?.reminders.map((r) => r.text)).not.toEqual(at.decisions?.b?.reminders.map((r) => r.text));
  });

  it("compares runs of different lengths over their common turns only", async () => {
    const expected = differingTurns(events["cmp-a"], events["cmp-d"]);
    const answer = await compareRuns(db, projectId, { a: "cmp-a", b: "cmp-d", direction: "previous" });
    expect(answer.commonTurns).toEqual([0, 649]);
    expect(answer.first).toBe(expected[0]);
    expect(answer.turn).toBe(expected.at(-1));
  });

  it("names which run is unknown, and never finds another project's run", async () => {
    await expect(compareRuns(db, projectId, { a: "cmp-a", b: "nope", direction: "next" })).rejects.toMatchObject({
      kind: "not_found",
      message: 'run b: no run "nope" in this project',
    });
    await expect(compareRuns(db, projectId, { a: "cmp-other", b: "cmp-a", direction: "next" })).rejects.toMatchObject({
      kind: "not_found",
      message: 'run a: no run "cmp-other" in this project',
    });
  });
});
