import type { TReplayRequest, TRunStatus } from "@/lib/contracts";
import { rangeStart, stripUndefined, type TimeRange } from "./url-params";

export interface ReplayChoice {
  copyVersionId?: string;
  policyVersionId?: string;
  status?: TRunStatus;
  agent?: string;
  model?: string;
  q?: string;
  range?: TimeRange;
  /** A fixed window (from a shown replay) when there is no preset range. */
  from?: string;
  to?: string;
  maxRuns: number;
}

/** The API request for a choice; a preset range becomes a `from` instant now. */
export function replayRequest(choice: ReplayChoice, now: number): Partial<TReplayRequest> {
  const { copyVersionId, policyVersionId, status, agent, model, q, range, from, to, maxRuns } = choice;
  const window = range ? { from: rangeStart(range, now), to: undefined } : { from, to };
  const filters = stripUndefined({ status, agent, model, q: q?.trim() || undefined, ...window });
  return { copyVersionId, policyVersionId, filters, maxRuns };
}
