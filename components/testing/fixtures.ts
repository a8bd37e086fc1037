/**
 * Contract data for the component tests, built the way the core's conformance suite builds it
 * (lib/core/spec/builders) and rebuilt by the real core, so a component sees what the API serves.
 */
import type { SentRequest } from "@/components/testing/api";
import { reviewerRows } from "@/lib/derived/reviewer/rows";
import { buildTimeline } from "@/lib/derived/timeline/build-timeline";
import {
  REMINDER_KEYS,
  ZCopyVersion,
  ZPolicyVersion,
  ZRunListItem,
  ZRunSummary,
  type TCopy,
  type TCopyVersion,
  type TEvent,
  type TPolicy,
  type TPolicyVersion,
  type TReplayResult,
  type TReplayTurn,
  type TRunListItem,
  type TRunSummary,
  type TReviewerCandidateRow,
  type TTurnDetail,
  type TVersionInfo,
} from "@/lib/contracts";
import { rebuild, summarizeDecisions, type RebuildOptions } from "@/lib/core";
import { changedTurns, turnsToList } from "@/lib/replay/changed-turns";
import { whatIfFindings } from "@/lib/replay/what-if-findings";
import { addKeyStats, emptyKeyStats } from "@/lib/replay/key-stats";
import { json, rem, run, TEACH_COPY, TEACH_POLICY, teachingScene, turnOf } from "@/lib/core/spec/builders";

export { TEACH_COPY };

/** The contract §9 teaching policy: requests, context, edits meters, review every 10 turns. */
export const teachPolicy = TEACH_POLICY;

/** The teaching run as recorded (its turn 10 drops the context notice and the review suggestion). */
export const teachingEvents = teachingScene()
  .turn(11, (t) => t.requests(29).final(8000).ok([]))
  .events();

/** Turn 10 has 38 free bytes: requests (19 B) and edits fit, context and review… see lib/copy/copy.test.ts. */
export const teaching = json(rebuild(teachingEvents));

export const turn10 = turnOf(teaching, 10);

/** A turn as `GET /api/v1/runs/:runId/turns/:turn` serves it (lib/server/runs/run-reads.ts), from built events. */
export function turnDetail(events: readonly TEvent[], turn: number): TTurnDetail {
  const decisions = json(rebuild([...events]));
  const existing = [
    ...new Set(events.filter((e) => "turn" in e && typeof e.turn === "number").map((e) => (e as { turn: number }).turn)),
  ].sort((a, b) => a - b);
  // Where the turn is or would be among the existing turns: a missing turn's neighbours are the nearest ones.
  const found = existing.findIndex((t) => t >= turn);
  const at = found === -1 ? existing.length : found;
  const exists = existing[at] === turn;
  return {
    runId: decisions.runId,
    turn,
    decision: decisions.turns.find((t) => t.turn === turn) ?? null,
    exists,
    findings: decisions.findings.filter((f) => f.turn === turn),
    events: json(events.filter((e) => "turn" in e && e.turn === turn)),
    previousTurn: at > 0 ? existing[at - 1] : null,
    nextTurn: existing[exists ? at + 1 : at] ?? null,
  };
}

/**
 * The teaching run where the agent drifted on turn 10 (requests listed at stage 1, the edits state
 * left out) and turn 12 has events but no request.final (skipped, INCOMPLETE_TURN).
 */
export const driftEvents = run({ runId: "drift", policy: teachPolicy, copy: TEACH_COPY })
  .turn(9, (t) => t.requests(17).final(5000).ok([]))
  .turn(10, (t) =>
    t
      .requests(28)
      .final(9962)
      .block("b1", 2)
      .ok([rem("requests", 1)]),
  )
  .turn(11, (t) => t.requests(29).final(8000).ok([]))
  .turn(12, (t) => t.requests(30).ok([]))
  .events();

/** Reviewer rows as `GET /api/v1/reviewer/candidates` serves them (lib/server/reviewer/list-candidates.ts). */
export function reviewerCandidateRows(
  events: readonly TEvent[],
  run: { task: string | null; agent?: string | null; model?: string | null },
): TReviewerCandidateRow[] {
  const decisions = rebuild([...events]);
  return json(
    reviewerRows(events, decisions).map((row) => ({
      runId: decisions.runId,
      task: run.task,
      agent: run.agent ?? null,
      model: run.model ?? null,
      ...row,
    })),
  );
}

/**
 * Reviewer scenes on the teaching policy (review every 10 turns, 8 requests left to admit):
 * c1 admitted and dispatched, completed with a verdict; c2 dispatched while d1 runs, admitted
 * against R13 and cancelled because its reminder was dropped; c3 denied for budget, dispatched anyway.
 */
export const reviewerEvents = run({ runId: "rev", policy: teachPolicy, copy: TEACH_COPY })
  .turn(10, (t) =>
    t
      .requests(28)
      .final(9962)
      .ok([rem("requests", 2)])
      .candidate("c1", 1)
      .admission("c1", true)
      .dispatched("c1", "d1"),
  )
  .turn(11, (t) => t.requests(29).final(8000).ok([]).candidate("c2").admission("c2", true).cancelled("c2", "reminder_dropped"))
  .turn(12, (t) => t.requests(30).final(8000).ok([]).completed("d1"))
  .turn(20, (t) =>
    t.requests(33).final(8000).ok([]).candidate("c3", 2).admission("c3", false, ["insufficient_budget"]).dispatched("c3", "d3"),
  )
  .events();

/** The keys and changed runs of a replay result, as lib/server/replay/replay-runs.ts computes them (follow-up left out). */
export function replayOf(runs: readonly (readonly TEvent[])[], overrides: RebuildOptions): Pick<TReplayResult, "keys" | "changedRuns"> {
  let baseline = REMINDER_KEYS.map(emptyKeyStats);
  let whatIf = REMINDER_KEYS.map(emptyKeyStats);
  const changedRuns: TReplayResult["changedRuns"] = [];
  for (const events of runs) {
    const before = rebuild(events);
    const after = rebuild(events, overrides);
    baseline = addKeyStats(baseline, before);
    whatIf = addKeyStats(whatIf, after);
    const changed = changedTurns(before, after);
    if (changed.length)
      changedRuns.push({
        runId: before.runId,
        changedTurns: changed.length,
        fateChangedTurns: changed.filter((c) => c.fate).length,
        turns: turnsToList(changed, 200),
      });
  }
  return json({ keys: REMINDER_KEYS.map((key, i) => ({ key, baseline: baseline[i], whatIf: whatIf[i] })), changedRuns });
}

/** One turn of a replayed run as lib/server/replay/replay-turn.ts serves it: recorded decisions beside the what-if. */
export function replayTurnOf(
  events: readonly TEvent[],
  overrides: RebuildOptions,
  turn: number,
  job: Pick<TReplayTurn, "jobId" | "copyVersionId" | "policyVersionId">,
): TReplayTurn {
  const baseline = rebuild(events);
  const whatIf = rebuild(events, overrides);
  const changed = changedTurns(baseline, whatIf);
  return json({
    ...job,
    runId: baseline.runId,
    turn,
    baseline: baseline.turns.find((t) => t.turn === turn) ?? null,
    whatIf: whatIf.turns.find((t) => t.turn === turn) ?? null,
    changes: changed.find((c) => c.turn === turn)?.changes ?? [],
    baselineFindings: baseline.findings.filter((f) => f.turn === turn),
    whatIfFindings: whatIfFindings(whatIf.findings.filter((f) => f.turn === turn)),
    previousChanged: changed.filter((c) => c.turn < turn).at(-1)?.turn ?? null,
    nextChanged: changed.find((c) => c.turn > turn)?.turn ?? null,
  });
}

/** A run with room to spare: every reminder fits whatever the copy says. */
export const roomyEvents = run({ runId: "roomy", policy: teachPolicy, copy: TEACH_COPY })
  .turn(3, (t) =>
    t
      .requests(20)
      .final(1000)
      .ok([rem("requests", 1)]),
  )
  .turn(4, (t) =>
    t
      .requests(21)
      .final(1000)
      .ok([rem("requests", 1)]),
  )
  .events();

/** The fields every saved version has, as `GET /api/v1/copy-versions` serves them. */
type VersionFields = Pick<TVersionInfo, "id" | "name"> & Partial<TVersionInfo>;

const versionDefaults = { note: null, savedBy: "ana", parentId: null, createdAt: "2026-11-30T12:00:00.000Z", isDefault: false };

export function copyVersion(fields: VersionFields & { copy?: TCopy }): TCopyVersion {
  return ZCopyVersion.parse({ ...versionDefaults, copy: TEACH_COPY, ...fields, kind: "copy" });
}

export function policyVersion(fields: VersionFields & { policy?: TPolicy }): TPolicyVersion {
  return ZPolicyVersion.parse({ ...versionDefaults, policy: teachPolicy, ...fields, kind: "policy" });
}

/** A run as `GET /api/v1/runs` lists it: a completed 12-turn run of the ETF agent unless `fields` say otherwise. */
export function runListItem(fields: Partial<TRunListItem> & { runId: string }): TRunListItem {
  return ZRunListItem.parse({
    task: `Compare fees of VOO, IVV and SPLG (${fields.runId})`,
    agent: "etf-agent",
    model: "m-large",
    experimentId: null,
    experimentArm: null,
    status: "completed",
    startedAt: "2026-11-30T10:00:00.000Z",
    endedAt: "2026-11-30T10:20:00.000Z",
    turns: 12,
    eventCount: 38,
    requests: { used: 30, usable: 36, reserve: 4, limit: 40 },
    time: { elapsedMs: 1_200_000, limitMs: 1_800_000 },
    reminders: { delivered: 5, dropped: 1, failed: 0, uncertain: 0, pending: 0 },
    findings: 0,
    findingsByCode: {},
    dropRate: 1 / 6,
    reviewerViolations: 0,
    rebuildError: null,
    staleEvents: 0,
    rebuildPending: false,
    commentCount: 0,
    nextLimit: null,
    ...fields,
  });
}

/** A run's header as `GET /api/v1/runs/:runId` serves it (lib/server/runs/run-dto.ts): its list item plus what the rebuild says. */
export function runSummaryOf(events: readonly TEvent[], fields: Partial<TRunListItem> = {}): TRunSummary {
  const decisions = rebuild([...events]);
  const started = events.find((e) => e.type === "run.started");
  const { lastMeters, ...summary } = summarizeDecisions(decisions);
  return ZRunSummary.parse(
    json({
      ...runListItem({
        runId: decisions.runId,
        task: started?.type === "run.started" ? started.body.task : null,
        turns: Math.max(0, ...events.map((e) => ("turn" in e && typeof e.turn === "number" ? e.turn + 1 : 0))),
        eventCount: events.length,
        requests: lastMeters?.requests ?? null,
        time: lastMeters?.time ? { elapsedMs: lastMeters.time.elapsedMs, limitMs: lastMeters.time.limitMs } : null,
        reminders: summary.reminders,
        findings: summary.findings,
        findingsByCode: summary.findingsByCode,
        dropRate: (() => {
          const total = Object.values(summary.reminders).reduce((a, b) => a + b, 0);
          return total > 0 ? summary.reminders.dropped / total : null;
        })(),
        ...fields,
      }),
      policy: started?.type === "run.started" ? started.body.policy : null,
      copy: started?.type === "run.started" ? (started.body.copy ?? null) : null,
      rebuiltTurns: summary.rebuiltTurns,
      skippedTurns: summary.skippedTurns,
      lastMeters,
      projection: null,
      projectionCheck: null,
    }),
  );
}

/**
 * The API's answers about one recorded run, as `fakeApi` routes (components/testing/api.tsx): the
 * runs list holding it, its header, its timeline and each of its turns.
 */
export function recordedRunRoutes(events: readonly TEvent[]): Record<string, () => unknown> {
  const summary = runSummaryOf(events);
  const id = encodeURIComponent(summary.runId);
  const routes: Record<string, () => unknown> = {
    "GET /api/v1/runs": () => ({ runs: [runListItem(summary)], nextCursor: null }),
    [`GET /api/v1/runs/${id}`]: () => summary,
    [`GET /api/v1/runs/${id}/timeline`]: () => json(buildTimeline(rebuild([...events]), events)),
    // A run recorded as telemetry events only: no OpenTelemetry records (the page then draws no panel for them).
    [`GET /api/v1/runs/${id}/otlp`]: () => ({
      runId: summary.runId,
      counts: { modelRequests: 0, spans: 0, logs: 0 },
      tokens: { input: 0, output: 0 },
      records: [],
      nextCursor: null,
    }),
    // Nobody reviewed its Reviewer candidates.
    [`GET /api/v1/runs/${id}/reviews`]: () => ({ reviews: [], nextCursor: null }),
  };
  for (const turn of new Set(events.flatMap((e) => ("turn" in e && typeof e.turn === "number" ? [e.turn] : [])))) {
    routes[`GET /api/v1/runs/${id}/turns/${turn}`] = () => turnDetail(events, turn);
  }
  return routes;
}

/** What `POST /api/v1/copy-versions` and `…/policy-versions` are sent (ZCopyVersionCreate, ZPolicyVersionCreate). */
type VersionCreate = { name: string; note?: string; parentId?: string; makeDefault?: boolean; copy?: TCopy; policy?: TPolicy };

/**
 * A project's saved versions of one kind as `fakeApi` routes, kept as the server keeps them: the
 * list (newest first), a save (the new version is `<prefix>-new`, with its parent), and making a
 * version the project default (one at most).
 */
function versionRoutes<V extends { id: string; isDefault: boolean }>(
  path: string,
  prefix: string,
  versions: readonly V[],
  make: (id: string, body: VersionCreate) => V,
): Record<string, (request: SentRequest) => unknown> {
  let list = [...versions];
  const makeDefault = (id: string) => (list = list.map((v) => ({ ...v, isDefault: v.id === id })));
  const routes: Record<string, (request: SentRequest) => unknown> = {
    [`GET ${path}`]: () => ({ versions: list }),
    [`POST ${path}`]: ({ body }) => {
      const saved = make(`${prefix}-new`, body as VersionCreate);
      list = [saved, ...list];
      if (saved.isDefault) makeDefault(saved.id);
      return Response.json(saved, { status: 201 });
    },
  };
  for (const id of [...versions.map((v) => v.id), `${prefix}-new`]) {
    routes[`POST ${path}/${id}/default`] = () => makeDefault(id).find((v) => v.id === id);
  }
  return routes;
}

export function copyVersionRoutes(versions: readonly TCopyVersion[]) {
  return versionRoutes("/api/v1/copy-versions", "cv", versions, (id, { name, note, parentId, makeDefault, copy }) =>
    copyVersion({ id, name, note: note ?? null, parentId: parentId ?? null, isDefault: makeDefault ?? false, copy }),
  );
}

export function policyVersionRoutes(versions: readonly TPolicyVersion[]) {
  return versionRoutes("/api/v1/policy-versions", "pv", versions, (id, { name, note, parentId, makeDefault, policy }) =>
    policyVersion({ id, name, note: note ?? null, parentId: parentId ?? null, isDefault: makeDefault ?? false, policy }),
  );
}
