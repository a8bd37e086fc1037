import { SEARCH_SINCE_VERSION } from "@/lib/server/rebuild/derived-version";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MAX_SEARCH_MATCHES,
  ZEvent,
  ZRunSearch,
  type TEvent,
  type TRunSearch,
  type TRunSearchQuery,
  type TSearchKind,
} from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { runsApi } from "@/lib/endpoints";
import { authenticate, createKey } from "@/lib/server/auth/keys";
import { taskThreads } from "@/lib/server/background/tasks";
import { useDatabase, type Database } from "@/lib/server/db";
import { routeOf } from "@/lib/server/http/api";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { rebuildRun } from "@/lib/server/rebuild/rebuild-run";
import { testDatabases } from "@/lib/server/testing/databases";
import { searchRun } from "./run-search";

/**
 * The oracle: for each turn of the run, the (kind, term) pairs matching the query, worked out turn by
 * turn from the core's rebuilt decisions and the run's events as docs/search.md defines them, with
 * none of the index's code (no buckets, no masks): a reminder text lowercased with its digit runs as
 * `#` and its white space runs as one space, containing the query written so; a finding code (a
 * run-level one on the last rebuilt turn), an action kind, a block id starting with the query, case
 * aside; a block where a model.action names it, an edits reminder is about it or its edit meter is
 * new or changed since the previous rebuilt turn.
 */
function scan(events: readonly TEvent[], q: string, kind: TSearchKind | undefined): Map<number, Set<string>> {
  const decisions = rebuild(events);
  const text = (s: string) => s.toLowerCase().replace(/\d+/g, "#").replace(/\s+/g, " ").trim();
  const byTurn = new Map<number, Set<string>>();
  const found = (turn: number, k: TSearchKind, term: string) => {
    if (kind !== undefined && kind !== k) return;
    const ok = k === "text" ? term.includes(text(q)) : term.toLowerCase().startsWith(q.trim().toLowerCase());
    if (!ok) return;
    if (!byTurn.has(turn)) byTurn.set(turn, new Set());
    byTurn.get(turn)!.add(`${k}:${term}`);
  };
  decisions.turns.forEach((t, i) => {
    for (const r of t.reminders) {
      found(t.turn, "text", text(r.text));
      if (r.key === "edits" && r.subject) found(t.turn, "block", r.subject);
    }
    const before = i > 0 ? (decisions.turns[i - 1].meters.edits ?? []) : [];
    for (const m of t.meters.edits ?? []) {
      const was = before.find((b) => b.blockId === m.blockId);
      if (!was || was.used !== m.used || was.limit !== m.limit) found(t.turn, "block", m.blockId);
    }
  });
  for (const f of decisions.findings) {
    const turn = f.turn ?? decisions.turns.at(-1)?.turn;
    if (turn !== undefined) found(turn, "finding", f.code);
  }
  for (const e of events)
    if (e.type === "model.action") {
      found(e.turn, "action", e.body.kind);
      if (e.body.blockId) found(e.turn, "block", e.body.blockId);
    }
  return byTurn;
}

/** The answer's matches as the oracle writes them: turn → its matched `kind:term`s. */
function answered(answer: TRunSearch): Map<number, Set<string>> {
  return new Map(answer.matches.map((m) => [m.turn, new Set(m.terms.map((i) => `${answer.terms[i].kind}:${answer.terms[i].term}`))]));
}

/** The first `n` of the oracle's turns, ascending, with their terms. */
function firstOf(expected: Map<number, Set<string>>, n: number): Map<number, Set<string>> {
  return new Map([...expected].sort(([a], [b]) => a - b).slice(0, n));
}

describe.each(testDatabases())("search inside a run on $name", (kind) => {
  let db: Database;
  let projectId: string;
  let otherProjectId: string;
  let secret: string;
  let otherSecret: string;
  const threads = taskThreads(0);
  const events: Record<string, TEvent[]> = {};
  const route = routeOf(runsApi.search);

  async function store(project: string, runId: string, raw: readonly Record<string, unknown>[]) {
    const renamed = raw.map((e) => ({ ...e, runId, id: `${runId}:${e.id}` }));
    const answer = await ingestBatch(db, project, renamed);
    expect(answer.results.filter((r) => r.status === "error")).toEqual([]);
    events[runId] = [...(events[runId] ?? []), ...renamed.map((e) => ZEvent.parse(e))];
    const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId: project, runId } } });
    return rebuildRun(db, threads, project, run.id);
  }

  async function storedRows(runId: string) {
    const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId } } });
    const rows = await db.prisma.runSearchTerm.findMany({
      where: { projectId, runPk: run.id },
      select: { bucket: true, kind: true, term: true, folded: true, mask: true },
    });
    return rows.sort((a, b) => a.bucket - b.bucket || a.kind.localeCompare(b.kind) || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
  }

  const get = (key: string, runId: string, query: string) =>
    route(new Request(`http://cuescope.test/api/v1/runs/${runId}/search?${query}`, { headers: { authorization: `Bearer ${key}` } }), {
      params: Promise.resolve({ runId }),
    });

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    secret = (await createKey(db, "search")).secret;
    otherSecret = (await createKey(db, "search-other")).secret;
    projectId = (await authenticate(db, `Bearer ${secret}`)).projectId;
    otherProjectId = (await authenticate(db, `Bearer ${otherSecret}`)).projectId;
    // 700 turns: three buckets of 256 turn numbers, with findings, actions and blocks.
    const all = generateEtfRun({ seed: 11, turns: 700, anomalies: true }).events;
    expect((await store(projectId, "search-full", all)).mode).toBe("full");
    // The same events arriving in two parts: the second rebuild resumes (the run grew into a new bucket).
    const cut = all.findIndex((e) => (e as { turn?: number }).turn === 300 && e.type !== "run.started");
    expect((await store(projectId, "search-grown", all.slice(0, cut))).mode).toBe("full");
    expect((await store(projectId, "search-grown", all.slice(cut))).mode).toBe("resumed");
    await store(otherProjectId, "search-other", all.slice(0, 200));
  }, 240_000);
  afterAll(async () => db?.close());

  it("a resumed rebuild stores the same index a full rebuild of the same events stores", async () => {
    const full = await storedRows("search-full");
    expect(new Set(full.map((r) => r.bucket))).toEqual(new Set([0, 1, 2]));
    expect(await storedRows("search-grown")).toEqual(full);
  });

  const decisions = () => rebuild(events["search-full"]);

  it.each([
    { name: "a reminder text, across every kind", query: () => ({ q: "requests:" }) },
    {
      name: "a reminder text written with other numbers",
      query: () => ({ q: decisions().turns[400].reminders[0].text, kind: "text" as const }),
    },
    {
      name: "a finding code's prefix, in lower case",
      query: () => ({ q: decisions().findings[0].code.slice(0, 6).toLowerCase(), kind: "finding" as const }),
    },
    { name: "an action kind", query: () => ({ q: "tool_call", kind: "action" as const }) },
    {
      name: "a block id",
      query: () => ({
        q: events["search-full"].find((e) => e.type === "block.edited")!.body.blockId,
        kind: "block" as const,
      }),
    },
    { name: "a word found in texts and action kinds", query: () => ({ q: "review" }) },
  ])("finds what a turn-by-turn scan of the rebuilt decisions finds: $name", async ({ query }) => {
    const q: TRunSearchQuery = query();
    const expected = scan(events["search-full"], q.q, q.kind);
    expect(expected.size).toBeGreaterThan(0);
    for (const runId of ["search-full", "search-grown"]) {
      const answer = ZRunSearch.parse(await searchRun(db, projectId, runId, q));
      expect(answer).toMatchObject({ runId, q: q.q, kind: q.kind ?? null, indexed: true, termsTruncated: false, total: expected.size });
      expect(answer.truncated).toBe(expected.size > MAX_SEARCH_MATCHES);
      expect(answer.matches.length).toBe(Math.min(expected.size, MAX_SEARCH_MATCHES));
      expect(answered(answer)).toEqual(firstOf(expected, MAX_SEARCH_MATCHES));
      // Each term's count is the number of turns holding it.
      for (const term of answer.terms)
        expect(term.turns, term.term).toBe([...expected.values()].filter((s) => s.has(`${term.kind}:${term.term}`)).length);
    }
  });

  it("caps the listed turns at the first 500 and counts them all", async () => {
    const expected = scan(events["search-full"], "#", "text");
    expect(expected.size).toBeGreaterThan(MAX_SEARCH_MATCHES);
    const answer = await searchRun(db, projectId, "search-full", { q: "7", kind: "text" });
    expect(answer.total).toBe(expected.size);
    expect(answer.truncated).toBe(true);
    expect(answer.matches.map((m) => m.turn)).toEqual([...expected.keys()].sort((a, b) => a - b).slice(0, MAX_SEARCH_MATCHES));
  });

  it("answers no match with nothing, and a run without an index yet as not indexed", async () => {
    expect(await searchRun(db, projectId, "search-full", { q: "no such words anywhere" })).toMatchObject({
      indexed: true,
      terms: [],
      total: 0,
      matches: [],
      truncated: false,
    });
    const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId: "search-full" } } });
    const where = { projectId_runPk: { projectId, runPk: run.id } };
    const { derivedVersion } = await db.prisma.runDecisionsCache.findUniqueOrThrow({ where, select: { derivedVersion: true } });
    await db.prisma.runDecisionsCache.update({ where, data: { derivedVersion: SEARCH_SINCE_VERSION - 1 } });
    try {
      expect(await searchRun(db, projectId, "search-full", { q: "requests" })).toMatchObject({ indexed: false, total: 0, matches: [] });
    } finally {
      await db.prisma.runDecisionsCache.update({ where, data: { derivedVersion } });
    }
  });

  it("serves the route: the caller's project only (another's run is 404), a bad query a 400 naming the field", async () => {
    const ok = await get(secret, "search-full", "q=tool&kind=action");
    expect(ok.status).toBe(200);
    expect(ZRunSearch.parse(await ok.json()).total).toBe(scan(events["search-full"], "tool", "action").size);
    expect((await get(secret, "search-other", "q=tool")).status).toBe(404);
    expect((await get(otherSecret, "search-full", "q=tool")).status).toBe(404);
    expect((await get(otherSecret, "search-other", "q=tool")).status).toBe(200);
    for (const [query, field, words] of [
      ["", "q", "search text of 1-200 characters"],
      ["q=", "q", "search text of 1-200 characters"],
      [`q=${"x".repeat(201)}`, "q", "got 201 characters"],
      ["q=%20%20", "q", "other than white space"],
      ["q=x&kind=words", "kind", "expected one of text, finding, action, block"],
    ] as const) {
      const bad = await get(secret, "search-full", query);
      expect(bad.status, query).toBe(400);
      const body = (await bad.json()) as { error: { code: string; message: string; path?: string } };
      expect(body.error.path, query).toBe(field);
      expect(body.error.message, query).toMatch(new RegExp(`^query\\.${field}: `));
      expect(body.error.message, query).toContain(words);
    }
  });
});
