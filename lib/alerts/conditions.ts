import {
  ALERT_WINDOW_LABELS,
  type TAlertCondition,
  type TAlertScope,
  type TAlertValue,
  type TRunProjection,
  type TRunsOutMeter,
  type TWindowedCondition,
} from "@/lib/contracts";
import { wilsonInterval } from "@/lib/stats/wilson";

/**
 * What an alert rule's condition means, without the database (docs/alerts.md): the window it looks
 * at, the stored counts it reads, whether they make it true, and how it is said in words and linked.
 * lib/server/alerts/evaluate.ts reads the counts and keeps the rule's state.
 */

const QUARTER_MS = 15 * 60_000;

/**
 * The instants a windowed condition counts, [from, to) in epoch ms: the rollups' 15-minute buckets
 * from the one `now` is in back over `windowMinutes`. The current bucket is counted while it fills,
 * so a spike is seen within a minute rather than at the end of its quarter hour.
 */
export function conditionWindow(windowMinutes: number, now: number): { from: number; to: number } {
  const to = Math.floor(now / QUARTER_MS) * QUARTER_MS + QUARTER_MS;
  return { from: to - windowMinutes * 60_000, to };
}

/** The trend rollups' count keys a windowed condition sums (lib/trends/buckets.ts names them). */
export function conditionCountKeys(condition: TAlertCondition): string[] {
  switch (condition.kind) {
    case "drop_rate":
      return [`reminders.${condition.key}.candidates`, `reminders.${condition.key}.dropped`];
    case "reviewer_violations":
      return ["reviewerViolations"];
    case "finding":
      return [`findings.${condition.code}`];
    case "meter_stage":
    case "runs_out":
      return [];
  }
}

/** What a windowed condition's counts say: its value and whether it holds. */
export function judgeCounts(
  condition: TWindowedCondition,
  counts: ReadonlyMap<string, number>,
  window: { from: number; to: number },
): TAlertValue {
  const n = (key: string) => counts.get(key) ?? 0;
  const span = { from: new Date(window.from).toISOString(), to: new Date(window.to).toISOString() };
  switch (condition.kind) {
    case "drop_rate": {
      const candidates = n(`reminders.${condition.key}.candidates`);
      const dropped = n(`reminders.${condition.key}.dropped`);
      const rate = candidates === 0 ? null : dropped / candidates;
      const holds = rate !== null && candidates >= condition.minCandidates && rate > condition.threshold;
      return { ...span, dropped, candidates, rate, holds };
    }
    case "reviewer_violations": {
      const count = n("reviewerViolations");
      return { ...span, count, holds: count > condition.threshold };
    }
    case "finding": {
      const count = n(`findings.${condition.code}`);
      return { ...span, count, holds: count > 0 };
    }
  }
}

/** The live runs a meter or runs-out condition found (`runs` of them; the first ones' ids; runs-out: the soonest run's turns). */
export function judgeLiveRuns(runs: number, runIds: readonly string[], now: number, soonest?: TurnsToLimit | null): TAlertValue {
  const value: TAlertValue = { from: null, to: new Date(now).toISOString(), runs, runIds: [...runIds], holds: runs > 0 };
  if (soonest === undefined) return value;
  return { ...value, soonestTurns: soonest?.turns ?? null, soonestTurnsLow: soonest?.low ?? null, soonestTurnsHigh: soonest?.high ?? null };
}

/** A run's turns left to a meter's limit: at its fitted pace, and at the fastest and slowest pace of its interval. */
export interface TurnsToLimit {
  turns: number;
  low: number | null;
  /** Null: the slowest pace of the interval never reaches the limit. */
  high: number | null;
}

/**
 * How many turns a run has left before `meter` reaches its limit, from its stored projection
 * (docs/projection.md): counted from the projection's last rebuilt turn, at the fitted pace
 * (`turns`) and at the fastest and slowest pace of its 95% interval (`low`, `high`). A limit already
 * reached is 0 turns. Null when the run has no projection of that meter or its fitted pace never
 * reaches the limit ("not at this pace"): such a run never makes a `runs_out` rule hold. What the
 * rebuild keeps in `runs.requests_limit_in` and `runs.time_limit_in` (lib/server/runs/list-figures.ts).
 */
export function turnsToLimit(projection: TRunProjection | null | undefined, meter: TRunsOutMeter): TurnsToLimit | null {
  const limit = projection?.meters.find((m) => m.meter === meter)?.limit;
  if (!projection || !limit || limit.turn === null) return null;
  const left = (turn: number | null) => (turn === null ? null : Math.max(0, turn - projection.lastTurn));
  return { turns: left(limit.turn)!, low: left(limit.turnLow), high: left(limit.turnHigh) };
}

const percent = (x: number) => `${(Math.round(x * 1000) / 10).toLocaleString("en-US")}%`;

function scopeWords(scope: TAlertScope): string {
  const parts = [scope.agent ? `agent ${scope.agent}` : null, scope.model ? `model ${scope.model}` : null].filter(Boolean);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

/** The condition in words, as the rules page and the webhook say it. */
export function describeCondition(condition: TAlertCondition, scope: TAlertScope = {}): string {
  const scoped = scopeWords(scope);
  switch (condition.kind) {
    case "drop_rate":
      return (
        `${condition.key} reminders' drop rate above ${percent(condition.threshold)} over ${ALERT_WINDOW_LABELS[condition.windowMinutes as keyof typeof ALERT_WINDOW_LABELS]}` +
        `, once at least ${condition.minCandidates.toLocaleString("en-US")} candidates${scoped}`
      );
    case "reviewer_violations":
      return `more than ${condition.threshold.toLocaleString("en-US")} Reviewer violations over ${ALERT_WINDOW_LABELS[condition.windowMinutes as keyof typeof ALERT_WINDOW_LABELS]}${scoped}`;
    case "finding":
      return `a ${condition.code} finding over ${ALERT_WINDOW_LABELS[condition.windowMinutes as keyof typeof ALERT_WINDOW_LABELS]}${scoped}`;
    case "meter_stage":
      return `a live run's ${condition.meter} meter at stage ${condition.stage} or higher${scoped}`;
    case "runs_out":
      return `a live run projected to run out of ${condition.meter} within ${turnsWords(condition.withinTurns)} at its current pace${scoped}`;
  }
}

const turnsWords = (n: number) => `${n.toLocaleString("en-US")} turn${n === 1 ? "" : "s"}`;

/** A runs-out value's soonest run: "soonest in ~12 turns (95% interval 8–20 turns)", or at its limit already. */
function soonestWords(value: TAlertValue): string {
  const turns = value.soonestTurns;
  if (turns === null || turns === undefined) return "";
  if (turns === 0) return "; soonest already at its limit";
  const low = value.soonestTurnsLow ?? null;
  const high = value.soonestTurnsHigh ?? null;
  const interval =
    low === null
      ? ""
      : high === null
        ? ` (95% interval ${turnsWords(low)} or more)`
        : low === high
          ? ""
          : ` (95% interval ${low.toLocaleString("en-US")}–${turnsWords(high)})`;
  return `; soonest in ~${turnsWords(turns)}${interval}`;
}

/** "al-2, al-3, al-4, …": the first three runs a live-runs value names. */
function namedRuns(value: TAlertValue): string {
  const runs = value.runs ?? 0;
  return value.runIds?.length ? `: ${value.runIds.slice(0, 3).join(", ")}${runs > 3 ? ", …" : ""}` : "";
}

/** What an evaluation measured, in words and in the condition's own unit (a rate with its counts and interval). */
export function describeValue(condition: TAlertCondition, value: TAlertValue): string {
  switch (condition.kind) {
    case "drop_rate": {
      const { dropped = 0, candidates = 0 } = value;
      if (candidates === 0) return `no ${condition.key} candidates`;
      const ci = wilsonInterval(dropped, candidates);
      const interval = ci ? ` (95% interval ${percent(ci.low)}–${percent(ci.high)})` : "";
      return `${dropped.toLocaleString("en-US")} of ${candidates.toLocaleString("en-US")} ${condition.key} candidates dropped: ${percent(dropped / candidates)}${interval}`;
    }
    case "reviewer_violations":
      return `${(value.count ?? 0).toLocaleString("en-US")} Reviewer violations`;
    case "finding":
      return `${(value.count ?? 0).toLocaleString("en-US")} ${condition.code} findings`;
    case "meter_stage": {
      const runs = value.runs ?? 0;
      return `${runs.toLocaleString("en-US")} live run${runs === 1 ? "" : "s"} at ${condition.meter} stage ${condition.stage} or higher${namedRuns(value)}`;
    }
    case "runs_out": {
      const runs = value.runs ?? 0;
      return (
        `${runs.toLocaleString("en-US")} live run${runs === 1 ? "" : "s"} projected to run out of ${condition.meter} ` +
        `within ${turnsWords(condition.withinTurns)}${namedRuns(value)}${soonestWords(value)}`
      );
    }
  }
}

/**
 * The runs list filtered to the runs an alert is about, as far as the runs filters can say it: the
 * finding's code, runs with Reviewer violations or with drops, or live runs (meter and runs-out rules); with the rule's agent
 * and model. Windowed rules add no time filter: the list's times are when runs started, and a run
 * started before the window can have its turns in it; the list shows the newest first.
 */
export function runsHref(condition: TAlertCondition, scope: TAlertScope): string {
  const query = new URLSearchParams();
  if (condition.kind === "finding") query.set("finding", condition.code);
  if (condition.kind === "reviewer_violations") query.set("hasViolations", "1");
  if (condition.kind === "drop_rate") query.set("hasDrops", "1");
  if (condition.kind === "meter_stage" || condition.kind === "runs_out") query.set("status", "live");
  if (scope.agent) query.set("agent", scope.agent);
  if (scope.model) query.set("model", scope.model);
  return `/runs?${query.toString()}`;
}
