import { REMINDER_KEYS, type TArmResult, type TEstimate, type TExperimentResults, type TMeasure, type TReminderKey } from "@/lib/contracts";
import {
  meanInterval,
  newcombeDifference,
  normalQuantile,
  ratioDifference,
  ratioInterval,
  wilsonInterval,
  Z975,
  type RatioSums,
} from "@/lib/stats";

/** An arm as the results need it (contract §10). */
export interface ArmDefinition {
  name: string;
  position: number;
  weight: number;
  plannedRuns: number;
  copyVersionId: string | null;
  policyVersionId: string | null;
}

/** Where a run of the experiment stands (experiment_runs.status). */
export type RunStatus = "counted" | "mismatched" | "live" | "unknown";

/** One stored sum: an arm's runs of one status, one count key (experiment_rollups). */
export interface ArmSum {
  arm: string;
  status: RunStatus;
  key: string;
  n: number;
}

export interface ResultsInput {
  experimentId: string;
  key: TReminderKey;
  status: TExperimentResults["status"];
  /** In the experiment's order: the first is the control. */
  arms: readonly ArmDefinition[];
  sums: readonly ArmSum[];
}

const KEY_WORDS: Record<TReminderKey, string> = {
  requests: "requests notice",
  time: "time notice",
  context: "context notice",
  edits: "edits state",
  review: "review suggestion",
};

type Counts = ReadonlyMap<string, number>;

/** One measure's definition: how it reads an arm's summed counts, and how two arms differ. */
interface MeasureDefinition {
  id: string;
  label: string;
  kind: TMeasure["kind"];
  unit: string;
  /** Multiplies the value and the interval (findings per 1,000 turns). */
  scale?: number;
  /** The sums' prefix in the per-run counts (lib/derived/effectiveness): `<prefix>.x`, `.y`, …. */
  sums: string;
}

const NO_ESTIMATE: TEstimate = { value: null, low: null, high: null };

/**
 * The results of an experiment from its stored sums (contract §10): per arm, each measure with its
 * counts and 95% interval and its difference from the control; the fixed horizon (every arm at its
 * planned ended runs) and, only once it is reached, the verdict on the experiment key's follow-up
 * after a due reminder at the Bonferroni-adjusted level 1 − 0.05 / (arms − 1). Pure: the server
 * reads the sums, the page shows this.
 */
export function experimentResults(input: ResultsInput): TExperimentResults {
  const byArm = new Map<string, Map<RunStatus, Map<string, number>>>();
  for (const { arm, status, key, n } of input.sums) {
    let statuses = byArm.get(arm);
    if (!statuses) byArm.set(arm, (statuses = new Map()));
    let counts = statuses.get(status);
    if (!counts) statuses.set(status, (counts = new Map()));
    counts.set(key, (counts.get(key) ?? 0) + n);
  }
  const known = new Set(input.arms.map((a) => a.name));
  let unknownArmRuns = 0;
  for (const [arm, statuses] of byArm) {
    if (known.has(arm)) continue;
    for (const counts of statuses.values()) unknownArmRuns += counts.get("runs") ?? 0;
  }

  const counted = (arm: string): Counts => byArm.get(arm)?.get("counted") ?? new Map();
  const runsOf = (arm: string, status: RunStatus) => byArm.get(arm)?.get(status)?.get("runs") ?? 0;
  const definitions = measuresFor(
    input.key,
    input.arms.map((a) => counted(a.name)),
  );
  const control = input.arms[0];

  const arms: TArmResult[] = input.arms.map((arm, index) => {
    const counts = counted(arm.name);
    const runs = counts.get("runs") ?? 0;
    return {
      ...arm,
      runs,
      liveRuns: runsOf(arm.name, "live"),
      mismatchedRuns: runsOf(arm.name, "mismatched"),
      reachedPlan: runs >= arm.plannedRuns,
      measures: definitions.map((d) => measure(d, counts, index === 0 || !control ? null : counted(control.name))),
    };
  });

  const reached = arms.length >= 2 && arms.every((a) => a.reachedPlan);
  const progress = arms.map((a) => `${a.name} ${a.runs} of ${a.plannedRuns}`).join(", ");
  const horizon = reached
    ? { reached, message: `Every arm has its planned ended runs (${progress}): the verdict is final for this plan.` }
    : {
        reached,
        message: `Not enough runs yet: ${progress} ended runs. Intervals are interim; no winner is named before every arm has its planned runs.`,
      };

  let verdict: TExperimentResults["verdict"] = null;
  if (reached && control) {
    const comparisons = arms.length - 1;
    const z = normalQuantile(1 - 0.05 / (2 * comparisons));
    const primary = `due.${input.key}`;
    verdict = {
      measure: primary,
      level: 1 - 0.05 / comparisons,
      arms: input.arms.slice(1).map((arm) => {
        const d = ratioDifference(ratioSums(counted(arm.name), primary), ratioSums(counted(control.name), primary), z);
        const difference = { value: d.difference, low: d.low, high: d.high };
        const verdict =
          d.low !== null && d.low > 0
            ? "higher than control"
            : d.high !== null && d.high < 0
              ? "lower than control"
              : "no difference shown";
        return { arm: arm.name, verdict, difference };
      }),
    };
  }

  return { experimentId: input.experimentId, key: input.key, status: input.status, horizon, verdict, unknownArmRuns, arms };
}

/**
 * The measures shown: per reminder key (the experiment's first) its follow-up after a due reminder,
 * of delivered reminders and its drop rate, for the experiment's key always and for another key
 * when some arm has any of its reminders; then the per-turn, per-run and outcome measures.
 */
function measuresFor(key: TReminderKey, arms: readonly Counts[]): MeasureDefinition[] {
  const keys = [key, ...REMINDER_KEYS.filter((k) => k !== key)].filter(
    (k) => k === key || arms.some((c) => (c.get(`drop.${k}.y`) ?? 0) > 0 || (c.get(`due.${k}.y`) ?? 0) > 0),
  );
  const perKey = keys.flatMap((k): MeasureDefinition[] => [
    { id: `due.${k}`, label: `Follow-up after a due ${KEY_WORDS[k]}`, kind: "ratio", unit: "followed / due reminders", sums: `due.${k}` },
    {
      id: `followUp.${k}`,
      label: `Follow-up of delivered ${KEY_WORDS[k]}s`,
      kind: "ratio",
      unit: "followed / delivered reminders",
      sums: `followUp.${k}`,
    },
    { id: `drop.${k}`, label: `${KEY_WORDS[k]}s dropped`, kind: "ratio", unit: "dropped / decided reminders", sums: `drop.${k}` },
  ]);
  return [
    ...perKey,
    { id: "bytesPerTurn", label: "Delivered reminder bytes per turn", kind: "ratio", unit: "bytes / turn", sums: "bytesPerTurn" },
    {
      id: "findingsPer1000Turns",
      label: "Audit findings per 1,000 turns",
      kind: "ratio",
      unit: "findings / 1,000 turns",
      scale: 1000,
      sums: "findingsPerTurn",
    },
    { id: "finished", label: "Runs that finished (completed)", kind: "share", unit: "runs", sums: "finished" },
    { id: "outOfRequests", label: "Runs out of requests at the end", kind: "share", unit: "runs", sums: "outOfRequests" },
    { id: "outOfTime", label: "Runs out of time at the end", kind: "share", unit: "runs", sums: "outOfTime" },
    { id: "requestsLeft", label: "Requests left at the end", kind: "mean", unit: "requests", sums: "requestsLeft" },
    { id: "timeLeftMs", label: "Time left at the end", kind: "mean", unit: "ms", sums: "timeLeftMs" },
  ];
}

function ratioSums(c: Counts, prefix: string): RatioSums {
  const get = (s: string) => c.get(`${prefix}.${s}`) ?? 0;
  return { n: c.get("runs") ?? 0, sumX: get("x"), sumY: get("y"), sumXX: get("xx"), sumYY: get("yy"), sumXY: get("xy") };
}

/** A share's successes and runs: `finished` is over every counted run; the others over the runs with that meter. */
function shareCounts(c: Counts, prefix: string): { x: number; n: number } {
  if (prefix === "finished") return { x: c.get("finished") ?? 0, n: c.get("runs") ?? 0 };
  return { x: c.get(`${prefix}.x`) ?? 0, n: c.get(`${prefix}.n`) ?? 0 };
}

function meanSums(c: Counts, prefix: string) {
  return { n: c.get(`${prefix}.n`) ?? 0, sum: c.get(`${prefix}.sum`) ?? 0, sumSquares: c.get(`${prefix}.sumSq`) ?? 0 };
}

function measure(d: MeasureDefinition, c: Counts, control: Counts | null): TMeasure {
  const scale = d.scale ?? 1;
  const scaled = (e: { value: number | null; low: number | null; high: number | null }): TEstimate => ({
    value: e.value === null ? null : e.value * scale,
    low: e.low === null ? null : e.low * scale,
    high: e.high === null ? null : e.high * scale,
  });
  const base = { id: d.id, label: d.label, kind: d.kind, unit: d.unit };
  if (d.kind === "ratio") {
    const sums = ratioSums(c, d.sums);
    const r = ratioInterval(sums);
    const vs = control && ratioDifference(sums, ratioSums(control, d.sums), Z975);
    return {
      ...base,
      estimate: scaled({ value: r.ratio, low: r.low, high: r.high }),
      numerator: sums.sumX,
      denominator: sums.sumY,
      runs: sums.n,
      vsControl: vs ? scaled({ value: vs.difference, low: vs.low, high: vs.high }) : null,
    };
  }
  if (d.kind === "share") {
    const { x, n } = shareCounts(c, d.sums);
    const w = wilsonInterval(x, n);
    let vsControl: TEstimate | null = null;
    if (control) {
      const other = shareCounts(control, d.sums);
      const diff = newcombeDifference(x, n, other.x, other.n);
      vsControl = diff ? { value: diff.difference, low: diff.low, high: diff.high } : NO_ESTIMATE;
    }
    return {
      ...base,
      estimate: n === 0 ? NO_ESTIMATE : { value: x / n, low: w?.low ?? null, high: w?.high ?? null },
      numerator: x,
      denominator: n,
      runs: n,
      vsControl,
    };
  }
  const sums = meanSums(c, d.sums);
  const m = meanInterval(sums);
  return {
    ...base,
    estimate: { value: m.mean, low: m.low, high: m.high },
    numerator: sums.sum,
    denominator: sums.n,
    runs: sums.n,
    vsControl: control ? meanDifference(sums, meanSums(control, d.sums)) : null,
  };
}

/**
 * The difference of two independent samples' means with a large-sample (Welch, normal z) 95%
 * interval: d ± z·√(s1²/n1 + s2²/n2). Null interval unless both have 2 or more observations.
 */
function meanDifference(a: { n: number; sum: number; sumSquares: number }, b: { n: number; sum: number; sumSquares: number }): TEstimate {
  if (a.n === 0 || b.n === 0) return NO_ESTIMATE;
  const value = a.sum / a.n - b.sum / b.n;
  if (a.n < 2 || b.n < 2) return { value, low: null, high: null };
  const variance = (s: typeof a) => Math.max(0, (s.sumSquares - (s.sum * s.sum) / s.n) / (s.n - 1)) / s.n;
  const margin = Z975 * Math.sqrt(variance(a) + variance(b));
  return { value, low: value - margin, high: value + margin };
}
