import type { TMeterProjection, TPolicy, TProjectedMeter, TReach, TRunProjection, TTurnDecision } from "@/lib/contracts";
import { msToMinutes } from "@/lib/format/time";
import { theilSen, type RobustFit } from "@/lib/stats";

/** The pace is fitted over a meter's readings on the run's last this many rebuilt turns. */
export const PROJECTION_TURNS = 30;
/** A projected turn beyond this is "not at this pace" (turns are 32-bit). */
const MAX_TURN = 2_147_483_647;

/** One turn's reading of a meter, in the meter's unit, with the stage the core gave it. */
export interface Reading {
  turn: number;
  value: number;
  stage: number;
}

/** How a projected meter is read off a turn, and its stages' thresholds and limit in its unit. */
export interface MeterSpec {
  meter: TProjectedMeter;
  unit: TMeterProjection["unit"];
  read: (turn: TTurnDecision) => Reading | null;
  /** Stage thresholds and limit, in the meter's unit (from the meter's own reading: its limit may change). */
  scale: (last: TTurnDecision) => { thresholds: number[]; limit: number } | null;
}

/**
 * What runs out next (docs/projection.md), purely from a run's last rebuilt turns and its policy:
 * for the requests (used, toward the usable requests), time (minutes of the run clock, toward its
 * limit) and context (bytes of the final request, toward the capacity) meters, the pace over the
 * meter's readings on the last PROJECTION_TURNS turns (Theil–Sen, robust to a compaction's drop or a
 * burst of retries), and the turn at which it reaches its next stage and its limit at that pace,
 * with the interval of the pace's 95% interval. The minute of the run clock comes from the time
 * meter's own pace (its interval from the turns' interval only). `turns` ascend; only their tail is read.
 */
export function runProjection(turns: readonly TTurnDecision[], policy: TPolicy): TRunProjection | null {
  const last = turns.at(-1);
  if (!last) return null;
  const tail = turns.slice(-PROJECTION_TURNS);
  const specs = meterSpecs(policy);
  const fits = new Map<TProjectedMeter, { fit: RobustFit; readings: Reading[] }>();
  for (const spec of specs) {
    const readings = tail.map(spec.read).filter((r): r is Reading => r !== null);
    const fit = theilSen(
      readings.map((r) => r.turn),
      readings.map((r) => r.value),
    );
    if (fit) fits.set(spec.meter, { fit, readings });
  }
  const time = fits.get("time");
  const minuteAt = (turn: number | null): number | null => {
    if (turn === null || !time) return null;
    const now = time.readings.at(-1)!;
    return round3(now.value + Math.max(0, time.fit.slope) * (turn - now.turn));
  };
  const meters: TMeterProjection[] = [];
  for (const spec of specs) {
    const fitted = fits.get(spec.meter);
    const scale = spec.scale(last);
    if (!fitted || !scale) continue;
    const now = fitted.readings.at(-1)!;
    const reach = (value: number, stage: number | null): TReach => {
      const turns = reachTurns(fitted.fit, now, value);
      const exact = spec.meter === "time";
      return {
        value,
        stage,
        ...turns,
        minute: exact ? round3(value) : minuteAt(turns.turn),
        minuteLow: exact ? round3(value) : minuteAt(turns.turnLow),
        minuteHigh: exact ? round3(value) : minuteAt(turns.turnHigh),
      };
    };
    const next = now.stage + 1;
    meters.push({
      meter: spec.meter,
      unit: spec.unit,
      fromTurn: fitted.readings[0].turn,
      toTurn: now.turn,
      points: fitted.readings.length,
      perTurn: fitted.fit.slope,
      perTurnLow: fitted.fit.slopeLow,
      perTurnHigh: fitted.fit.slopeHigh,
      value: now.value,
      nextStage: next <= scale.thresholds.length ? reach(scale.thresholds[next - 1], next) : null,
      limit: reach(scale.limit, null),
    });
  }
  let first: TRunProjection["first"] = null;
  for (const m of meters)
    if (m.limit.turn !== null && (first === null || m.limit.turn < first.turn)) first = { meter: m.meter, turn: m.limit.turn };
  return { lastTurn: last.turn, meters, first };
}

/**
 * The turn at which a meter now at `now` reaches `value` at the fitted pace, and at the fastest and
 * slowest pace of its interval (anchored at the last reading, so the projection starts where the
 * meter is). Already reached: the last reading's turn. Not rising: null (never at this pace).
 */
export function reachTurns(fit: RobustFit, now: Reading, value: number): Pick<TReach, "turn" | "turnLow" | "turnHigh"> {
  const left = value - now.value;
  if (left <= 0) return { turn: now.turn, turnLow: now.turn, turnHigh: now.turn };
  const at = (slope: number) => {
    if (!(slope > 0)) return null;
    const turn = Math.ceil(now.turn + left / slope);
    return turn <= MAX_TURN ? turn : null;
  };
  return { turn: at(fit.slope), turnLow: at(fit.slopeHigh), turnHigh: at(fit.slopeLow) };
}

/** The projected meters the policy has (requests, time, context), each read in its own unit. */
export function meterSpecs(policy: TPolicy): MeterSpec[] {
  const specs: MeterSpec[] = [];
  if (policy.requests) {
    const stages = policy.requests.stages;
    specs.push({
      meter: "requests",
      unit: "requests",
      read: (t) => (t.meters.requests ? { turn: t.turn, value: t.meters.requests.used, stage: t.meters.requests.stage } : null),
      scale: (t) =>
        t.meters.requests ? { thresholds: stages.map((s) => s * t.meters.requests!.usable), limit: t.meters.requests.usable } : null,
    });
  }
  if (policy.time) {
    const stages = policy.time.stages;
    specs.push({
      meter: "time",
      unit: "min",
      read: (t) => (t.meters.time ? { turn: t.turn, value: msToMinutes(t.meters.time.elapsedMs), stage: t.meters.time.stage } : null),
      scale: (t) => {
        if (!t.meters.time) return null;
        const limit = t.meters.time.limitMs / 60_000;
        return { thresholds: stages.map((s) => s * limit), limit };
      },
    });
  }
  if (policy.context) {
    const stages = policy.context.stages;
    specs.push({
      meter: "context",
      unit: "bytes",
      read: (t) => (t.meters.context ? { turn: t.turn, value: t.meters.context.requiredBytes, stage: t.meters.context.stage } : null),
      scale: (t) =>
        t.meters.context
          ? { thresholds: stages.map((s) => s * t.meters.context!.capacityBytes), limit: t.meters.context.capacityBytes }
          : null,
    });
  }
  return specs;
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
