import { generateEtfRun, type EtfRunOptions, type TRawEvent } from "./etf-run";

/**
 * The demo data set: runs of the seed's ETF research agent by several agents and models, from 20
 * to 2,000 turns, over the last days before `now`. Together they make every contract §7 finding
 * code appear, next to ordinary runs and one still live. Three of them also say what filled each
 * request (contract §11's context parts); the others are v1 runs without them.
 */
export const DEMO_RUNS: readonly (EtfRunOptions & { hoursAgo: number; live?: boolean })[] = [
  {
    runId: "etf-fees-voo-ivv-splg",
    contextParts: true,
    task: "Compare fees and holdings of VOO, IVV and SPLG",
    seed: 11,
    turns: 420,
    agent: "etf-research-agent",
    model: "m-large",
    anomalies: true,
    hoursAgo: 2,
  },
  {
    runId: "etf-holdings-overlap",
    task: "Measure holdings overlap between QQQ, VGT and XLK",
    seed: 12,
    turns: 2000,
    agent: "etf-research-agent",
    model: "m-large",
    anomalies: ["STAGE_MISMATCH", "UNCERTAIN_RESENT", "CONCURRENT_DISPATCH"],
    hoursAgo: 8,
  },
  {
    runId: "etf-expense-ratio-check",
    task: "Check the latest expense ratios of VTI, ITOT and SCHB",
    seed: 13,
    turns: 160,
    agent: "etf-lite-agent",
    model: "m-small",
    hoursAgo: 20,
  },
  {
    runId: "etf-dividend-history",
    task: "Summarise five years of dividend history for SCHD and VYM",
    seed: 14,
    turns: 60,
    agent: "etf-lite-agent",
    model: "m-small",
    anomalies: ["MISSING_REMINDER", "GLOBAL_STOP_ON_LOCAL_QUOTA"],
    hoursAgo: 30,
  },
  {
    runId: "etf-tracking-error",
    contextParts: true,
    task: "Estimate tracking error of EFA, IEFA and VEA against MSCI EAFE",
    seed: 15,
    turns: 900,
    agent: "etf-research-agent",
    model: "m-medium",
    anomalies: ["DISPATCH_WITHOUT_ADMISSION", "CANDIDATE_CANCELLED_BY_DROP", "ADMISSION_RULE_MISMATCH"],
    hoursAgo: 50,
  },
  {
    runId: "etf-quick-compare",
    task: "Quick comparison: BND vs AGG yield and duration",
    seed: 16,
    turns: 20,
    agent: "etf-lite-agent",
    model: "m-small",
    hoursAgo: 75,
  },
  {
    runId: "etf-sector-weights",
    contextParts: true,
    task: "Compare sector weights of VOO and RSP over the last year",
    seed: 17,
    turns: 300,
    agent: "etf-research-agent",
    model: "m-medium",
    hoursAgo: 0.5,
    live: true,
  },
];

/** Generates the demo runs' raw events, timed relative to `now` (ISO) so "last 24 h" filters show data. */
export function demoRuns(
  now: string,
  onRun?: (runId: string, index: number, total: number) => void,
): { runId: string; events: TRawEvent[] }[] {
  const end = Date.parse(now);
  return DEMO_RUNS.map(({ hoursAgo, live, ...options }, index) => {
    onRun?.(options.runId!, index, DEMO_RUNS.length);
    const startTime = new Date(end - hoursAgo * 3_600_000).toISOString();
    const { events } = generateEtfRun({ ...options, startTime, task: options.task });
    // Event ids are unique per project, not per run: prefix them with the run's id. A live run
    // has not ended yet: leave out its run.ended.
    const kept = live ? events.filter((e) => e.type !== "run.ended") : events;
    return { runId: options.runId!, events: kept.map((e) => ({ ...e, id: `${options.runId}:${e.id}` })) };
  });
}
