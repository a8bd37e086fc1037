import type { TRunListItem, TRunProjection, TRunStatus, TRunSummary } from "@/lib/contracts";
import type { RunRow } from "./find-run";
import { dropRateOf } from "./list-figures";
import type { RunSummaryResult } from "./run-decisions";

const NO_REMINDERS = { delivered: 0, dropped: 0, failed: 0, uncertain: 0, pending: 0 };

/** A run for lists: JSON-safe, each meter in its own unit, as the rebuilt decisions say. */
export function toRunListItem(run: RunRow, result: RunSummaryResult): TRunListItem {
  const summary = result.ok ? result.summary : null;
  const meters = summary?.lastMeters;
  return {
    runId: run.runId,
    task: run.task,
    agent: run.agent,
    model: run.model,
    experimentId: run.experimentId,
    experimentArm: run.experimentArm,
    status: run.status as TRunStatus,
    startedAt: run.startedAt?.toISOString() ?? null,
    endedAt: run.endedAt?.toISOString() ?? null,
    turns: run.maxTurn === null ? 0 : run.maxTurn + 1,
    eventCount: run.eventCount,
    requests: meters?.requests
      ? { used: meters.requests.used, usable: meters.requests.usable, reserve: meters.requests.reserve, limit: meters.requests.limit }
      : null,
    time: meters?.time ? { elapsedMs: meters.time.elapsedMs, limitMs: meters.time.limitMs } : null,
    reminders: summary?.reminders ?? NO_REMINDERS,
    findings: summary?.findings ?? 0,
    findingsByCode: summary?.findingsByCode ?? {},
    dropRate: summary ? dropRateOf(summary.reminders) : null,
    reviewerViolations: summary ? run.reviewerViolations : null,
    rebuildError: result.ok || result.pending ? null : result.error,
    staleEvents: result.staleEvents,
    rebuildPending: result.pending,
    commentCount: run.commentCount,
    nextLimit: run.status === "live" ? nextLimitOf(summary?.projection ?? null) : null,
  };
}

/** The limit a projection reaches first, with its interval and the turns left until it. */
function nextLimitOf(projection: TRunProjection | null): TRunListItem["nextLimit"] {
  const first = projection?.first;
  if (!projection || !first) return null;
  const limit = projection.meters.find((m) => m.meter === first.meter)!.limit;
  return {
    meter: first.meter,
    turn: first.turn,
    turnLow: limit.turnLow,
    turnHigh: limit.turnHigh,
    turnsLeft: first.turn - projection.lastTurn,
  };
}

/** A run's header: the list item plus its policy, copy, turn counts, last meters and findings by code. */
export function toRunSummary(run: RunRow, result: RunSummaryResult): TRunSummary {
  const summary = result.ok ? result.summary : null;
  return {
    ...toRunListItem(run, result),
    policy: summary?.policy ?? null,
    copy: summary?.copy ?? null,
    rebuiltTurns: summary?.rebuiltTurns ?? 0,
    skippedTurns: summary?.skippedTurns ?? 0,
    lastMeters: summary?.lastMeters ?? null,
    projection: summary?.projection ?? null,
    projectionCheck: summary?.projectionCheck ?? null,
  };
}
