import { ZEvent, ZPolicy, type TCopy, type TEvent, type TPolicyInput } from "@/lib/contracts";
import { assignArm, rebuild } from "@/lib/core";
import { defaultEtfPolicy, generateEtfRun, type TRawEvent } from "./etf-run";
import { streamOf } from "./prng";

/** The demo experiment's runs: short runs of the lite agent, all with the same policy. */
const TURNS = 40;
/** Turns of one run: its requests meter reaches stage 1 near turn 18 and stage 2 near turn 28. */
export const DEMO_EXPERIMENT_TURNS = TURNS;

/** The copy of the demo's "urgent" arm: its requests notice asks the model to finish. */
export const URGENT_REQUESTS_COPY: TCopy = {
  requests: {
    "*": "Only {remaining} model requests left ({percent}% of {usable} used): finish the answer now with what you have.",
  },
};

/**
 * The policy every demo experiment run starts with (the agent's own: the control arm's): the ETF
 * agent's, with requests notices at 40% and 60% of the usable requests, so that none is due within 3
 * turns of a run's natural end (whose `finalize` would count as following it, contract §8). The quick
 * agent has no Reviewer (no `reviewer` section), so the Reviewer audit shows the research agent's alone.
 */
export const DEMO_EXPERIMENT_POLICY: TPolicyInput = (() => {
  const policy = defaultEtfPolicy(TURNS);
  policy.requests = { ...policy.requests!, stages: [0.4, 0.6] };
  delete policy.reviewer;
  return policy;
})();

/** The holdout arm's policy: the same, with the requests notice turned off (contract §10, `remind: false`). */
export const HOLDOUT_POLICY: TPolicyInput = (() => {
  const policy = structuredClone(DEMO_EXPERIMENT_POLICY);
  policy.requests = { ...policy.requests!, remind: false };
  return policy;
})();

export interface DemoArm {
  name: string;
  weight: number;
  /** What the arm renders with, beside the agent's own copy and policy. */
  copy?: TCopy;
  policy?: TPolicyInput;
  /**
   * The demo model's behaviour, so the effect is known: the probability that it finalizes on the turn
   * after a requests notice it was shown; a notice it was not shown (dropped, or held out) is followed
   * with `BASELINE_FOLLOW` instead.
   */
  follow: number;
}

/** P(the model finalizes on the next turn) after a due requests notice it did not see. */
export const BASELINE_FOLLOW = 0.05;

/**
 * The demo experiment (contract §10): the requests notice's default copy (the control) against an urgent
 * copy and a holdout without the notice, one third of the runs each, 25 planned runs an arm. The demo
 * model follows a shown default notice with probability 0.3, a shown urgent one with 0.6, and finishes
 * on its own after an unseen one with 0.05: the true rates the results should recover.
 */
export const DEMO_EXPERIMENT = {
  name: "Requests notice: default vs urgent copy (demo)",
  note: "The demo model finalizes on the next turn after a shown default requests notice with probability 0.3, after the urgent one with 0.6, and after a notice it did not see (dropped or held out) with 0.05.",
  key: "requests" as const,
  plannedRuns: 25,
  arms: [
    { name: "default copy", weight: 1, follow: 0.3 },
    { name: "urgent copy", weight: 1, copy: URGENT_REQUESTS_COPY, follow: 0.6 },
    { name: "holdout", weight: 1, policy: HOLDOUT_POLICY, follow: BASELINE_FOLLOW },
  ] satisfies DemoArm[],
};

export interface DemoExperimentRun {
  runId: string;
  arm: string;
  events: TRawEvent[];
}

/**
 * The demo experiment's runs for the experiment stored with id `experimentId`: run ids
 * `exp-requests-001`, `-002`, … each assigned by `assignArm` (as the SDK does) until every arm has its
 * planned runs, spread over the `days` before `now`. Each run is the ETF agent's, rendered with its arm's
 * copy and policy and naming its experiment and arm in run.started; at each due requests notice (the
 * holdout's too) the demo model finalizes on the next turn with its arm's probability (shown) or the
 * baseline (not shown), and the run then ends there. Deterministic for a given experiment id.
 */
export function demoExperimentRuns(experimentId: string, now: string, days = 10): DemoExperimentRun[] {
  const arms = DEMO_EXPERIMENT.arms;
  const counts = new Map(arms.map((a) => [a.name, 0]));
  const end = Date.parse(now);
  const runs: DemoExperimentRun[] = [];
  // One stream for the model's choices across runs (streams of neighbouring seeds start alike).
  const rng = streamOf(5000, "experiment");
  for (let i = 1; [...counts.values()].some((n) => n < DEMO_EXPERIMENT.plannedRuns); i++) {
    const runId = `exp-requests-${String(i).padStart(3, "0")}`;
    const arm = assignArm(experimentId, runId, arms);
    counts.set(arm.name, counts.get(arm.name)! + 1);
    // Spread over the days before `now`, never after it (every 2.5 hours, wrapping round).
    const startTime = new Date(end - days * 86_400_000 + ((i * 2.5 * 3_600_000) % ((days * 24 - 6) * 3_600_000))).toISOString();
    const { events } = generateEtfRun({
      runId,
      seed: 5000 + i,
      turns: TURNS,
      agent: "etf-quick-agent",
      model: "m-small",
      task: `Quick fee check ${i}: VTI vs ITOT vs SCHB`,
      policy: "policy" in arm ? arm.policy : DEMO_EXPERIMENT_POLICY,
      ...("copy" in arm ? { copy: arm.copy } : {}),
      startTime,
    });
    const started = events[0];
    const named = [
      { ...started, body: { ...(started.body as object), experiment: { id: experimentId, arm: arm.name } } } as TRawEvent,
      ...events.slice(1),
    ];
    const followed = followedTurn(named, arm, rng);
    const kept = followed === null ? named : endAfter(named, followed + 1);
    runs.push({ runId, arm: arm.name, events: kept.map((e) => ({ ...e, id: `${runId}:${e.id}` })) });
  }
  return runs;
}

/**
 * The turn of the first due requests notice the demo model follows, or null: the notices the rules
 * make with the notice on (for the holdout, a rebuild as if it were on), each followed with the arm's
 * probability when it was delivered and the baseline otherwise.
 */
function followedTurn(events: readonly TRawEvent[], arm: DemoArm, rng: ReturnType<typeof streamOf>): number | null {
  const parsed = events.map((e) => ZEvent.parse(e) as TEvent);
  const holdout = arm.policy !== undefined;
  const decisions = holdout ? rebuild(parsed, { policy: ZPolicy.parse(DEMO_EXPERIMENT_POLICY) }) : rebuild(parsed);
  const last = decisions.turns.at(-1)?.turn ?? 0;
  for (const turn of decisions.turns) {
    for (const r of turn.reminders) {
      if (r.key !== "requests" || turn.turn >= last) continue;
      const shown = !holdout && r.status === "delivered";
      if (rng.chance(shown ? arm.follow : BASELINE_FOLLOW)) return turn.turn;
    }
  }
  return null;
}

/** The run cut after turn `lastTurn`: a `finalize` action on that turn, then run.ended (completed). */
function endAfter(events: readonly TRawEvent[], lastTurn: number): TRawEvent[] {
  const kept = events.filter((e) => e.type === "run.started" || (e.type !== "run.ended" && (e as { turn?: number }).turn! <= lastTurn));
  const lastMs = Math.max(...kept.map((e) => Date.parse(e.ts)));
  const at = (ms: number) => new Date(ms).toISOString();
  const runId = kept[0].runId;
  return [
    ...kept,
    { id: "e-final-action", runId, type: "model.action", ts: at(lastMs + 500), turn: lastTurn, body: { kind: "finalize" } } as TRawEvent,
    { id: "e-final-end", runId, type: "run.ended", ts: at(lastMs + 1_300), body: { status: "completed" } } as TRawEvent,
  ];
}
