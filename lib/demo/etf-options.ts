import type { TCopy, TFindingCode, TPolicyInput } from "@/lib/contracts";

/** Probabilities that shape an ordinary (non-anomalous) run. */
export interface EtfRates {
  /** A turn's first model request fails (and counts against the budget). */
  failedAttempt: number;
  /** A turn's first model request times out with an unknown result. */
  uncertainAttempt: number;
  /** After a failed request, the runtime retries within the turn. */
  retryAfterFail: number;
  /** A retry the provider does not bill (`countsAgainstBudget: false`): a natural FREE_REQUEST. */
  freeRetry: number;
  /** The model answers with a tool call (fund fact sheet, holdings table, search, prices). */
  toolCall: number;
  /** The tool's external request fails (it still counts against the request budget). */
  toolFailure: number;
  /** A context compaction candidate is rolled back (the original request is sent). */
  compactionRollback: number;
  /** After a rolled-back compaction (or near capacity), the assembler packs the request right up to the byte limit. */
  packToLimit: number;
  /** `request.final` carries `providerTokens`. */
  providerTokens: number;
  /** A Reviewer dispatch runs past the next checkpoint. */
  longDispatch: number;
  /** After a delivered review suggestion, the model reviews objectives or checks evidence. */
  reviewFollowUp: number;
}

export const DEFAULT_RATES: EtfRates = {
  failedAttempt: 0.04,
  uncertainAttempt: 0.012,
  retryAfterFail: 0.85,
  freeRetry: 0.12,
  toolCall: 0.8,
  toolFailure: 0.04,
  compactionRollback: 0.22,
  packToLimit: 0.45,
  providerTokens: 0.6,
  longDispatch: 0.08,
  reviewFollowUp: 0.55,
};

/**
 * The finding codes the generator can inject (every contract §7 code). The agent-comparison ones are
 * made by editing the agent's recorded lists; the others by changing the recorded facts.
 */
export type InjectableCode = TFindingCode;

export interface EtfRunOptions {
  runId?: string;
  seed?: number;
  turns?: number;
  agent?: string;
  model?: string;
  task?: string;
  /** Defaults to `defaultEtfPolicy(turns)`: contract §5's shape, with limits scaled to the run's length. */
  policy?: TPolicyInput;
  copy?: TCopy;
  /** RFC 3339; the run's `run.started` instant. */
  startTime?: string;
  /** How many text blocks the answer grows to (b1, b2, ...); 5 by default. */
  blocks?: number;
  /** `true` injects every contract §7 finding code; a list injects just those. */
  anomalies?: boolean | readonly InjectableCode[];
  /** How many times each requested code is injected (spread over the run); 1 by default. */
  anomalyRepeats?: number;
  rates?: Partial<EtfRates>;
  /** Every request.final also says what filled the request (contextParts, contract §11); off by default. */
  contextParts?: boolean;
  /** Progress for long runs (e.g. on stderr): phase name, done, total. */
  onProgress?: (phase: string, done: number, total: number) => void;
}

export const DEFAULT_TASK =
  "Compare the holdings overlap, expense ratios and tracking difference of VTI, ITOT, SCHB and VT " +
  "for a long-term taxable account; cite each fund's fact sheet and holdings file, and recommend one.";

/** Mean model requests a turn consumes: the request, retries, failed tool calls, Reviewer dispatches. */
const REQUESTS_PER_TURN = 1.17;
/** Mean wall-clock length of a turn, in ms. */
const MS_PER_TURN = 19_800;

/**
 * The example policy of contract §5, with the request and time limits scaled so that a run of `turns` turns
 * ends near the top stage of each (the §5 figures are for a run of about fifty turns).
 */
export function defaultEtfPolicy(turns: number): TPolicyInput {
  const usable = Math.max(54, Math.ceil((turns * REQUESTS_PER_TURN) / 0.96));
  const reserve = Math.max(6, Math.round(usable * 0.05));
  const limitMs = Math.max(1_800_000, Math.round((turns * MS_PER_TURN) / 0.93 / 60_000) * 60_000);
  return {
    requests: { limit: usable + reserve, deliveryReserve: reserve, stages: [0.5, 0.75, 0.9] },
    time: { limitMs, stages: [0.5, 0.75, 0.9] },
    context: { capacityBytes: 200_000, stages: [0.7, 0.85, 0.95] },
    edits: { perBlockLimit: 4, stages: [0.5, 1.0] },
    review: { everyTurns: 10, afterMs: 600_000 },
    reviewer: { autoReviewAllowed: true, minRequestsLeft: 8 },
  };
}
