import type { TBlockMeter, TPolicy, TTurnMeters } from "@/lib/contracts";
import { reviewCheckpoint } from "./checkpoint";
import type { MeterFacts } from "./facts";
import type { Rendered } from "./fit";
import type { Ledger, LedgerKey } from "./ledger";
import type { ReminderRenderer } from "./reminder-renderer";
import { outputRatio, ratioOf, stageOf } from "./stages";
import { contextValues, requestsValues, reviewValues, timeValues } from "./template-values";

export interface TurnInput {
  turn: number;
  /** From the turn's last `request.final`: the final request's required bytes (R9). */
  requiredBytes: number;
  policy: TPolicy;
  /** The run's renderer (its copy, compiled templates and cached block states). */
  renderer: ReminderRenderer;
  facts: MeterFacts;
}

export interface TurnCandidates {
  meters: TTurnMeters;
  /** Rendered candidates in presentation order (R4). */
  candidates: Rendered[];
  /** The review checkpoint k of this turn (R7). */
  checkpoint: number;
}

/**
 * Measures every meter in its own unit and makes this turn's candidates (R2–R7), rendered from
 * copy (§5). Applies R5's "a meter that fell" rule to the ledger, whatever the turn's outcome.
 * A candidate's placeholder values are computed only when the candidate is made. A section with
 * `remind: false` (contract §10, a holdout) is measured but makes no candidates; R5's fall still
 * applies to its ledger.
 */
export function makeCandidates(input: TurnInput, ledger: Ledger): TurnCandidates {
  const { turn, requiredBytes, policy, renderer, facts } = input;
  const meters: TTurnMeters = {};
  const candidates: Rendered[] = [];

  if (policy.requests && facts.requestsUsed !== undefined) {
    const { limit, deliveryReserve: reserve, stages } = policy.requests;
    const used = facts.requestsUsed;
    const usable = limit - reserve;
    const ratio = ratioOf(used, usable);
    const stage = stageOf(ratio, stages);
    meters.requests = { used, limit, reserve, usable, ratio: outputRatio(ratio), stage };
    if (noticeDue(ledger, "requests", stage) && policy.requests.remind !== false) {
      candidates.push(renderer.reminder("requests", null, "notice", stage, requestsValues(used, limit, reserve, stage)));
    }
  }

  if (policy.time && facts.elapsedMs !== undefined) {
    const { limitMs, stages } = policy.time;
    const elapsedMs = facts.elapsedMs;
    const ratio = ratioOf(elapsedMs, limitMs);
    const stage = stageOf(ratio, stages);
    meters.time = { elapsedMs, limitMs, ratio: outputRatio(ratio), stage };
    if (noticeDue(ledger, "time", stage) && policy.time.remind !== false) {
      candidates.push(renderer.reminder("time", null, "notice", stage, timeValues(elapsedMs, limitMs, stage)));
    }
  }

  if (policy.context) {
    const { capacityBytes, stages } = policy.context;
    const ratio = ratioOf(requiredBytes, capacityBytes);
    const stage = stageOf(ratio, stages);
    meters.context = { requiredBytes, capacityBytes, ratio: outputRatio(ratio), stage };
    if (noticeDue(ledger, "context", stage) && policy.context.remind !== false) {
      candidates.push(renderer.reminder("context", null, "notice", stage, contextValues(requiredBytes, capacityBytes, stage)));
    }
  }

  if (policy.edits && facts.blockList.length > 0) {
    const { perBlockLimit, stages } = policy.edits;
    const blocks: TBlockMeter[] = [];
    for (const { blockId, used, ownLimit } of facts.blockList) {
      const limit = ownLimit ?? perBlockLimit;
      const ratio = ratioOf(used, limit);
      const stage = stageOf(ratio, stages);
      blocks.push({ blockId, used, limit, ratio: outputRatio(ratio), stage });
      // R6: a standing constraint is repeated every turn while it holds, whatever was delivered before.
      if (stage >= 1 && policy.edits.remind !== false) candidates.push(renderer.blockState(blockId, stage, used, limit));
    }
    meters.edits = blocks;
  }

  const checkpoint = reviewCheckpoint(policy.review, turn, facts.elapsedMs);
  if (checkpoint >= 1 && checkpoint > ledger.review && policy.review?.remind !== false) {
    candidates.push(renderer.reminder("review", null, "suggestion", checkpoint, reviewValues(checkpoint, turn)));
  }

  return { meters, candidates, checkpoint };
}

/**
 * R5 for a notice at stage `stage`: if the meter fell below the ledger, the ledger follows it down
 * first; then a candidate is due iff stage >= 1 and it is above the ledger.
 */
function noticeDue(ledger: Ledger, key: LedgerKey, stage: number): boolean {
  if (stage < ledger[key]) ledger[key] = stage;
  return stage >= 1 && stage > ledger[key];
}
