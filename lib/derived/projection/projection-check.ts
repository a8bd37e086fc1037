import type { TPolicy, TProjectionCheck, TRunProjectionCheck, TTurnDecision } from "@/lib/contracts";
import { theilSen } from "@/lib/stats";
import { meterSpecs, PROJECTION_TURNS, reachTurns, type MeterSpec, type Reading } from "./projection";

/** A checked projection was made this many turns before the meter got there. */
export const CHECK_LEAD_TURNS = PROJECTION_TURNS;

/**
 * How far off the projection was (docs/projection.md#how-far-off), purely from a run's rebuilt
 * turns: for each stage each projected meter reached, and for its limit, the first turn it got
 * there, and what `runProjection`'s fit said when made `lead` turns before — over the
 * PROJECTION_TURNS turns up to the last turn at least `lead` before, exactly as a live run's page
 * showed it then. A target reached less than `lead` turns into the run, or already reached by value
 * when the projection was made, has no check. `turns` ascend.
 */
export function projectionCheck(turns: readonly TTurnDecision[], policy: TPolicy, lead: number = CHECK_LEAD_TURNS): TRunProjectionCheck {
  const checks: TProjectionCheck[] = [];
  for (const spec of meterSpecs(policy)) {
    for (const target of firstReaches(turns, spec)) {
      const check = checkAt(turns, spec, target, lead);
      if (check) checks.push(check);
    }
  }
  const order = meterSpecs(policy).map((s) => s.meter);
  checks.sort((a, b) => a.reachedTurn - b.reachedTurn || order.indexOf(a.meter) - order.indexOf(b.meter) || stageRank(a) - stageRank(b));
  return { leadTurns: lead, checks, inside: checks.filter((c) => c.inside).length };
}

const stageRank = (c: TProjectionCheck) => c.stage ?? Number.MAX_SAFE_INTEGER;

/** The index of the first turn at each stage the meter reached (a jump over stages reaches them all), and at its limit. */
function firstReaches(turns: readonly TTurnDecision[], spec: MeterSpec): { stage: number | null; index: number }[] {
  const reaches: { stage: number | null; index: number }[] = [];
  let top = 0;
  let limitReached = false;
  for (let i = 0; i < turns.length; i++) {
    const reading = spec.read(turns[i]);
    if (!reading) continue;
    for (let stage = top + 1; stage <= reading.stage; stage++) reaches.push({ stage, index: i });
    top = Math.max(top, reading.stage);
    if (!limitReached) {
      const scale = spec.scale(turns[i]);
      if (scale && reading.value >= scale.limit) {
        limitReached = true;
        reaches.push({ stage: null, index: i });
      }
    }
  }
  return reaches;
}

function checkAt(
  turns: readonly TTurnDecision[],
  spec: MeterSpec,
  target: { stage: number | null; index: number },
  lead: number,
): TProjectionCheck | null {
  const reachedTurn = turns[target.index].turn;
  const made = lastIndexAtOrBefore(turns, reachedTurn - lead, target.index);
  if (made < 0) return null;
  const tail = turns.slice(Math.max(0, made + 1 - PROJECTION_TURNS), made + 1);
  const readings: { reading: Reading; turn: TTurnDecision }[] = [];
  for (const turn of tail) {
    const reading = spec.read(turn);
    if (reading) readings.push({ reading, turn });
  }
  const fit = theilSen(
    readings.map((r) => r.reading.turn),
    readings.map((r) => r.reading.value),
  );
  const now = readings.at(-1);
  if (!fit || !now) return null;
  const scale = spec.scale(now.turn);
  if (!scale) return null;
  const value = target.stage === null ? scale.limit : scale.thresholds[target.stage - 1];
  if (value === undefined || now.reading.value >= value) return null;
  const reach = reachTurns(fit, now.reading, value);
  return {
    meter: spec.meter,
    stage: target.stage,
    value,
    reachedTurn,
    madeAtTurn: turns[made].turn,
    ...reach,
    offBy: reach.turn === null ? null : reach.turn - reachedTurn,
    inside: reach.turnLow !== null && reachedTurn >= reach.turnLow && (reach.turnHigh === null || reachedTurn <= reach.turnHigh),
  };
}

/** The index of the last turn numbered at most `turn`, searching below `before`; -1 when none. */
function lastIndexAtOrBefore(turns: readonly TTurnDecision[], turn: number, before: number): number {
  let lo = 0;
  let hi = before; // turns[lo..hi) is searched
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (turns[mid].turn <= turn) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
