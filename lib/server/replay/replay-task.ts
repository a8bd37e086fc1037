import {
  REMINDER_KEYS,
  type TCopy,
  type TEvent,
  type TKeyStats,
  type TPolicy,
  type TReplayResult,
  type TRunDecisions,
  type TRunTimeline,
} from "@/lib/contracts";
import { followUp, rebuild, RunInputError, summarizeDecisions, type DecisionsSummary } from "@/lib/core";
import { buildTimeline, TIMELINE_EVENT_TYPES } from "@/lib/derived/timeline/build-timeline";
import { changedTurns, turnsToList } from "@/lib/replay/changed-turns";
import { whatIfFindings } from "@/lib/replay/what-if-findings";
import type { RunFollowUp } from "@/lib/replay/follow-up-groups";
import { addKeyStats, emptyKeyStats } from "@/lib/replay/key-stats";
import { StoredDataError, storedEvent, type StoredEventRow } from "@/lib/server/db/json-columns";
import { eventRowsOfCopyPages } from "@/lib/server/runs/run-events";

const CHANGED_TURNS_LISTED = 200;

/** The replay's tasks, as it asks the job threads for them (lib/server/jobs/threads.ts). */
export type ReplayTasks = {
  replayRun: { input: ReplayRunInput; output: ReplayRunOutput | null };
  whatIfRun: { input: WhatIfRunInput; output: WhatIfRunOutput };
};

export interface ReplayRunInput {
  runId: string;
  /** The run's event rows, as pages of binary COPY (lib/server/runs/run-events.ts, readEventCopyPages). */
  eventPages: readonly Uint8Array[];
  overrides: { copy?: TCopy; policy?: TPolicy };
}

/** One run's share of a what-if replay, summed over runs by the job (lib/server/replay/replay-runs.ts). */
export interface ReplayRunOutput {
  baseline: TKeyStats[];
  whatIf: TKeyStats[];
  changed: TReplayResult["changedRuns"][number] | null;
  follow: RunFollowUp;
}

/**
 * Replays one run with the what-if copy/policy (contract §6) and compares it with its own
 * decisions: per-key stats of both, the turns that changed, and the run's §8 follow-up by key.
 * Its own decisions are rebuilt here from the same events with its own copy and policy — what its
 * stored rebuild holds, by the core's determinism, without reading them (the server's thread,
 * which reads the database, is the replay's narrow part; this one rebuilds faster than it parses
 * the stored JSON). Null when the run cannot be rebuilt (no run.started, a second one, rows that
 * no longer parse): it is left out, as a run whose stored rebuild failed. Pure, for a job thread.
 */
export function replayRunTask({ runId, eventPages, overrides }: ReplayRunInput): ReplayRunOutput | null {
  let events: TEvent[];
  let before: TRunDecisions;
  try {
    events = eventRowsOfCopyPages(eventPages).map((row) => storedEvent(row, runId));
    before = rebuild(events);
  } catch (error) {
    // What makes a stored rebuild fail (rebuildTask) leaves the run out; anything else fails the replay.
    if (error instanceof RunInputError || error instanceof StoredDataError) return null;
    throw error;
  }
  const after = rebuild(events, overrides);
  const changed = changedTurns(before, after);
  const started = events.find((e) => e.type === "run.started");
  return {
    baseline: addKeyStats(REMINDER_KEYS.map(emptyKeyStats), before),
    whatIf: addKeyStats(REMINDER_KEYS.map(emptyKeyStats), after),
    changed: changed.length
      ? {
          runId,
          changedTurns: changed.length,
          fateChangedTurns: changed.filter((c) => c.fate).length,
          turns: turnsToList(changed, CHANGED_TURNS_LISTED),
        }
      : null,
    follow: { copy: started?.type === "run.started" ? started.body.copy : undefined, byKey: followUp(before, events).byKey },
  };
}

export interface WhatIfRunInput {
  runId: string;
  rows: readonly StoredEventRow[];
  overrides: { copy?: TCopy; policy?: TPolicy };
}

/** A run's what-if: its decisions, and what the run comparison draws of it (docs/compare.md). */
export interface WhatIfRunOutput {
  decisions: TRunDecisions;
  /**
   * The what-if's whole-run timeline, built as a run's rebuild builds its stored one (the same
   * `buildTimeline`, its lanes from the same events), with the what-if's policy's stage and limit
   * lines; its findings are the what-if's own (without the comparisons with the agent's record).
   */
  timeline: TRunTimeline;
  /** The timeline's JSON text length (its cache size, measured here rather than on the server's thread). */
  timelineChars: number;
  /** The what-if's counts (reminders by status, findings by code: the same findings as the timeline's). */
  summary: DecisionsSummary;
}

const TIMELINE_TYPES: ReadonlySet<string> = new Set(TIMELINE_EVENT_TYPES);

/**
 * One run rebuilt with a what-if copy/policy (contract §6), for the replay's turn view and the run
 * comparison with its what-if, and that what-if's timeline and counts. Pure, for a job thread.
 */
export function whatIfRunTask({ runId, rows, overrides }: WhatIfRunInput): WhatIfRunOutput {
  const events = rows.map((row) => storedEvent(row, runId));
  const decisions = rebuild(events, overrides);
  // No agent ran with the what-if: the findings that compare with the agent's record are left out of what is drawn and counted.
  const own = { ...decisions, findings: whatIfFindings(decisions.findings) };
  const timeline = buildTimeline(
    own,
    events.filter((e) => TIMELINE_TYPES.has(e.type)),
    { policy: overrides.policy },
  );
  return { decisions, timeline, timelineChars: JSON.stringify(timeline).length, summary: summarizeDecisions(own) };
}
