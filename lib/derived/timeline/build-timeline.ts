import type {
  TBlockPoint,
  TCompaction,
  TBlockSeries,
  TEvent,
  TFindingCode,
  TFindingMarker,
  TMeterPoint,
  TPolicy,
  TRunDecisions,
  TReviewerLane,
  TRunTimeline,
  TTimelineNotification,
  TTimelineReminder,
  TTurnDecision,
} from "@/lib/contracts";
import { compareCodePoints, inRunOrder } from "@/lib/core";
import { msToMinutes, MS_PER_MINUTE } from "@/lib/format/time";
import { thinSeries, type SeriesPoint } from "./downsample";
import {
  foldChains,
  foldCompactions,
  foldFindings,
  foldNotifications,
  foldRebuiltReviewer,
  foldReminders,
  laneBuckets,
  type BucketOf,
} from "./fold-lanes";
import { meterSeries, partsPresent, stageChanges } from "./meter-series";
import { MARKER_STATUSES, reminderLanes } from "./reminder-lanes";
import { chainExtent, reviewerLane } from "@/lib/derived/reviewer/lane";
import { REVIEWER_LANE_EVENT_TYPES } from "@/lib/derived/reviewer/window-events";
import { thresholdsFor } from "./thresholds";

export interface BuildTimelineOptions {
  /** Point budget of each meter series (each block's series too); 600 by default, at least 4. */
  maxPoints?: number;
  /** First turn of the window (inclusive); the run's first turn by default. */
  fromTurn?: number;
  /** Last turn of the window (inclusive); the run's last turn by default. */
  toTurn?: number;
  /** The policy the decisions were rebuilt with, when it is not the run's own (what-if replay). */
  policy?: TPolicy;
  /**
   * The whole run's first and last rebuilt turn (null: none), when `decisions` holds only the turns
   * of a window (read from the stored chunks that overlap it); by default, those of `decisions.turns`.
   */
  runTurnRange?: [number, number] | null;
}

export const DEFAULT_MAX_POINTS = 600;

type Fit = <T>(items: T[], fold: (items: T[]) => T[]) => T[];

/** The event types the timeline's lanes and markers read (compactions, Reviewer flow, notifications). */
export const TIMELINE_EVENT_TYPES = ["run.started", "context.compaction", ...REVIEWER_LANE_EVENT_TYPES, "user.notified"] as const;

/**
 * The run page's timeline from a run's rebuilt decisions and its events (pure, deterministic).
 *
 * Meter values come from the decisions (each meter in its own unit; stage thresholds from the
 * policy — `options.policy`, else the run.started's — converted into that unit); compactions,
 * Reviewer chains and notifications from the events; findings and skipped turns (INCOMPLETE_TURN)
 * from the decisions. The meter series are thinned (see `downsample`: repeated readings are
 * folded without loss, then min/max buckets beyond `maxPoints`); a series point is kept on a turn
 * with a finding, a stage change of that meter, one of that meter's reminders that was not simply
 * delivered (dropped, failed, uncertain, pending), and for context a compaction — all of them while
 * they fit the budget, else the first and last of each bucket of turns (the lanes under the chart
 * still count every one), so a series has at most about twice `maxPoints` points. Reviewer items
 * and notifications sit on their own lanes, so a run with a checkpoint every 10 turns does not pin
 * every 10th point of every chart.
 *
 * Every list of markers longer than `maxPoints` is folded per bucket of turns (fold-lanes.ts), so
 * the timeline of a window has a size bounded by `maxPoints`, however many turns it spans: the
 * whole-run timeline of a 50,000-turn run costs what a 5,000-turn run's does.
 */
export function buildTimeline(decisions: TRunDecisions, events: readonly TEvent[], options: BuildTimelineOptions = {}): TRunTimeline {
  const maxPoints = Math.max(4, Math.floor(options.maxPoints ?? DEFAULT_MAX_POINTS));
  const from = options.fromTurn ?? 0;
  const to = options.toTurn ?? Number.POSITIVE_INFINITY;
  const inWindow = (turn: number) => turn >= from && turn <= to;

  const ordered = inRunOrder(events);
  const started = ordered.find((event) => event.type === "run.started");
  const policy: TPolicy = options.policy ?? (started?.type === "run.started" ? started.body.policy : {});
  const turns = decisions.turns.filter((t) => inWindow(t.turn));
  const runTurnRange = options.runTurnRange !== undefined ? options.runTurnRange : rangeOf(decisions.turns);
  /** The run's last rebuilt turn: where a dispatch still running ends. */
  const runEnd = runTurnRange?.[1] ?? 0;

  const { findings, runFindings } = findingMarkers(decisions, inWindow);
  const findingTurns = new Set(findings.map((f) => f.turn));
  const marks = reminderMarkerTurns(turns);
  const compactions: TCompaction[] = [];
  const notifications: TTimelineNotification[] = [];
  for (const event of ordered) {
    if (event.type === "context.compaction" && inWindow(event.turn)) {
      const { originalBytes, candidateBytes, outcome } = event.body;
      compactions.push({ turn: event.turn, originalBytes, candidateBytes, outcome });
    }
    if (event.type === "user.notified" && inWindow(event.turn)) {
      notifications.push({ turn: event.turn, channel: event.body.channel, message: event.body.message });
    }
  }
  for (const { turn } of compactions) marks.context.add(turn);

  const bucketOf = laneBuckets(rangeOf(turns), maxPoints);
  let lanesFolded = false;
  /** The list itself while it fits the budget, else folded per bucket. */
  const fit = <T>(items: T[], fold: (items: T[]) => T[]): T[] => {
    if (items.length <= maxPoints) return items;
    lanesFolded = true;
    return fold(items);
  };

  let downsampled = false;
  /** Thins a series, keeping the points at `changes` (indices), at `own`'s turns and at findings while they fit. */
  const thinPinned = <P extends SeriesPoint>(points: P[], own: ReadonlySet<number>, changes: ReadonlySet<number>): P[] => {
    const pinned = pinnedPoints(points, own, findingTurns, maxPoints, bucketOf, changes);
    const thinned = thinSeries(points, maxPoints, (_, i) => pinned.has(i));
    if (thinned.lossy) downsampled = true;
    return thinned.points;
  };
  /** A meter's series: its stage changes are kept too. */
  const thin = <P extends TMeterPoint>(points: P[], own: ReadonlySet<number>): P[] => thinPinned(points, own, stageChanges(points));

  const series = meterSeries(turns);
  const requests = policy.requests;
  const time = policy.time;
  const context = policy.context;
  const edits = policy.edits;
  const usable = requests ? requests.limit - requests.deliveryReserve : 0;

  const timeline: TRunTimeline = {
    runId: decisions.runId,
    runTurnRange,
    turnRange: rangeOf(turns),
    rebuiltTurns: spansOf(turns.map((t) => t.turn)),
    skippedTurns: [...new Set(findings.filter((f) => f.code === "INCOMPLETE_TURN").map((f) => f.turn))],
    sourceTurns: turns.length,
    maxPoints,
    downsampled: false,
    requests: requests
      ? {
          unit: "requests",
          limit: requests.limit,
          reserve: requests.deliveryReserve,
          usable,
          thresholds: thresholdsFor(requests.stages, usable),
          points: thin(series.requests, marks.requests),
        }
      : null,
    time: time
      ? {
          unit: "min",
          limit: msToMinutes(time.limitMs),
          thresholds: thresholdsFor(time.stages, time.limitMs / MS_PER_MINUTE),
          points: thin(series.time, marks.time),
        }
      : null,
    context: context
      ? {
          unit: "bytes",
          capacity: context.capacityBytes,
          thresholds: thresholdsFor(context.stages, context.capacityBytes),
          points: thin(series.context, marks.context),
          compactions: fit(compactions, (items) => foldCompactions(items, bucketOf)),
        }
      : null,
    ...(series.contextParts.length > 0 && {
      contextParts: {
        unit: "bytes" as const,
        parts: partsPresent(series.contextParts),
        turnsWithParts: series.contextParts.length,
        turnsWithoutParts: turns.length - series.contextParts.length,
        // What filled the request where a reminder was dropped or a compaction ran stays drawn.
        points: thinPinned(series.contextParts, new Set([...marks.dropped, ...compactions.map((c) => c.turn)]), new Set()),
      },
    }),
    edits: edits
      ? {
          unit: "edits",
          perBlockLimit: edits.perBlockLimit,
          stageRatios: [...edits.stages],
          blocks: [...series.blocks.keys()].sort(compareCodePoints).map((blockId): TBlockSeries => {
            const points = series.blocks.get(blockId)!;
            const limit = points[points.length - 1].limit!;
            const trimmed = points.map(({ turn, value, stage, limit: own }): TBlockPoint =>
              own === limit ? { turn, value, stage } : { turn, value, stage, limit: own },
            );
            return {
              blockId,
              limit,
              thresholds: thresholdsFor(edits.stages, limit),
              points: thin(trimmed, marks.blocks.get(blockId) ?? new Set()),
            };
          }),
        }
      : null,
    reminders: foldedReminderLanes(turns, fit, bucketOf),
    reviewer: foldedReviewerLane(windowedReviewerLane(policy, turns, ordered, inWindow, from, to, runEnd), fit, bucketOf, runEnd),
    notifications: fit(notifications, (items) => foldNotifications(items, bucketOf)),
    findings: fit(findings, (items) => foldFindings(items, bucketOf)),
    runFindings,
  };
  timeline.downsampled = downsampled;
  if (lanesFolded) timeline.lanesFolded = true;
  return timeline;
}

/**
 * Indices of the points a thinned series must keep: stage changes, the meter's own marker turns and
 * turns with findings. More than `budget` of them are cut to the first and last of each bucket of
 * turns, so markers cannot grow a series past the budget (the lanes keep every marker).
 */
function pinnedPoints(
  points: readonly { turn: number }[],
  own: ReadonlySet<number>,
  findingTurns: ReadonlySet<number>,
  budget: number,
  bucketOf: BucketOf,
  /** Indices of the points where the meter's stage changed. */
  changes: ReadonlySet<number>,
): Set<number> {
  const pinned: number[] = [];
  points.forEach((point, i) => {
    if (changes.has(i) || own.has(point.turn) || findingTurns.has(point.turn)) pinned.push(i);
  });
  if (pinned.length <= budget) return new Set(pinned);
  const ends = new Map<number, [number, number]>();
  for (const i of pinned) {
    const bucket = bucketOf(points[i].turn);
    const seen = ends.get(bucket);
    if (seen) seen[1] = i;
    else ends.set(bucket, [i, i]);
  }
  return new Set([...ends.values()].flat());
}

/**
 * Each meter's reminder lane, folded when it holds more items than the budget; the edits lane per
 * block, as each block has its own strip (so a block's strip is bounded like its series).
 */
function foldedReminderLanes(turns: readonly TTurnDecision[], fit: Fit, bucketOf: BucketOf) {
  const lanes = reminderLanes(turns);
  const rebuilt = turns.map((t) => t.turn);
  const fold = (items: TTimelineReminder[], byStage: boolean) => fit(items, (long) => foldReminders(long, bucketOf, rebuilt, byStage));
  lanes.requests = fold(lanes.requests, true);
  lanes.time = fold(lanes.time, true);
  lanes.context = fold(lanes.context, true);
  lanes.review = fold(lanes.review, false);
  const perBlock = new Map<string, TTimelineReminder[]>();
  for (const item of lanes.edits) {
    const list = perBlock.get(item.subject ?? "");
    if (list) list.push(item);
    else perBlock.set(item.subject ?? "", [item]);
  }
  const blocks = [...perBlock.values()];
  const folded = blocks.map((list) => fold(list, true));
  if (folded.some((list, i) => list !== blocks[i])) lanes.edits = folded.flat().sort((a, b) => a.turn - b.turn);
  return lanes;
}

/** The Reviewer lane with its rebuilt candidates and its recorded chains folded when each is over the budget. */
function foldedReviewerLane(lane: TReviewerLane, fit: Fit, bucketOf: BucketOf, end: number): TReviewerLane {
  lane.rebuilt = fit(lane.rebuilt, (items) => foldRebuiltReviewer(items, bucketOf));
  // Folded, the chains are counted in chainBuckets and listed no more.
  lane.chains = fit(lane.chains, (all) => {
    lane.chainBuckets = foldChains(all, bucketOf, end);
    return [];
  });
  return lane;
}

/** Turns where a meter's reminder (an edits one: per block) was not simply delivered. */
function reminderMarkerTurns(turns: readonly TTurnDecision[]) {
  const marks = {
    requests: new Set<number>(),
    time: new Set<number>(),
    context: new Set<number>(),
    blocks: new Map<string, Set<number>>(),
    /** Turns where any reminder was dropped for capacity. */
    dropped: new Set<number>(),
  };
  for (const { turn, reminders } of turns) {
    for (const reminder of reminders) {
      if (reminder.status === "dropped") marks.dropped.add(turn);
      if (!MARKER_STATUSES.has(reminder.status)) continue;
      if (reminder.key === "edits") {
        const subject = reminder.subject ?? "";
        let set = marks.blocks.get(subject);
        if (!set) marks.blocks.set(subject, (set = new Set()));
        set.add(turn);
      } else if (reminder.key !== "review") {
        marks[reminder.key].add(turn);
      }
    }
  }
  return marks;
}

/** Findings of the window grouped per (turn, code), keeping the decisions' order; run-level ones apart. */
function findingMarkers(decisions: TRunDecisions, inWindow: (turn: number) => boolean) {
  const findings: TFindingMarker[] = [];
  const runFindings: { code: TFindingCode; count: number }[] = [];
  const index = new Map<string, { count: number }>();
  for (const { code, turn } of decisions.findings) {
    if (turn !== null && !inWindow(turn)) continue;
    const id = `${turn}:${code}`;
    const seen = index.get(id);
    if (seen) {
      seen.count++;
      continue;
    }
    if (turn === null) {
      const marker = { code, count: 1 };
      runFindings.push(marker);
      index.set(id, marker);
    } else {
      const marker = { turn, code, count: 1 };
      findings.push(marker);
      index.set(id, marker);
    }
  }
  return { findings, runFindings };
}

function windowedReviewerLane(
  policy: TPolicy,
  turns: readonly TTurnDecision[],
  ordered: readonly TEvent[],
  inWindow: (turn: number) => boolean,
  from: number,
  to: number,
  /** The run's last rebuilt turn (0 without turns): where a chain still open ends. */
  end: number,
) {
  const lane = reviewerLane(policy, turns, ordered);
  lane.chains = lane.chains.filter((chain) => {
    const [first, last] = chainExtent(chain, end);
    return first <= to && last >= from;
  });
  lane.strayCompletions = lane.strayCompletions.filter((c) => inWindow(c.turn));
  return lane;
}

function rangeOf(turns: readonly TTurnDecision[]): [number, number] | null {
  return turns.length ? [turns[0].turn, turns[turns.length - 1].turn] : null;
}

/** Ascending turn numbers as inclusive runs of consecutive numbers. */
export function spansOf(turns: readonly number[]): [number, number][] {
  const spans: [number, number][] = [];
  for (const turn of turns) {
    const last = spans[spans.length - 1];
    if (last && turn === last[1] + 1) last[1] = turn;
    else spans.push([turn, turn]);
  }
  return spans;
}
