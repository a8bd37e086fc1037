import type { TBlockMeter, TPolicy, TTurnMeters } from "../contracts";
import { reviewCheckpoint } from "./checkpoint";
import type { MeterFacts } from "./facts";
import type { Rendered } from "./fit";
import type { Ledger, LedgerKey } from "./ledger";
import { fillTemplate, pickTemplate, reminderCost, type TResolvedCopy } from "./render";
import { outputRatio, percentOf, ratioOf, stageOf } from "./stages";

export interface TurnInput {
  turn: number;
  /** From the turn's last `request.final`: the final request's required bytes (R9). */
  requiredBytes: number;
  policy: TPolicy;
  copy: TResolvedCopy;
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
 */
export function makeCandidates(input: TurnInput, ledger: Ledger): TurnCandidates {
  const { turn, requiredBytes, policy, copy, facts } = input;
  const meters: TTurnMeters = {};
  const candidates: Rendered[] = [];

  const notice = (key: LedgerKey, stage: number, template: string, values: Record<string, number>) => {
    if (stage < ledger[key]) ledger[key] = stage;
    if (stage >= 1 && stage > ledger[key]) candidates.push(rendered(key, null, "notice", stage, template, values));
  };

  if (policy.requests && facts.requestsUsed !== undefined) {
    const { limit, deliveryReserve: reserve, stages } = policy.requests;
    const used = facts.requestsUsed;
    const usable = limit - reserve;
    const ratio = ratioOf(used, usable);
    const stage = stageOf(ratio, stages);
    meters.requests = { used, limit, reserve, usable, ratio: outputRatio(ratio), stage };
    notice("requests", stage, pickTemplate(copy.requests, stage), {
      used, limit, reserve, usable, remaining: Math.max(0, usable - used), percent: percentOf(used, usable), stage,
    });
  }

  if (policy.time && facts.elapsedMs !== undefined) {
    const { limitMs, stages } = policy.time;
    const elapsedMs = facts.elapsedMs;
    const ratio = ratioOf(elapsedMs, limitMs);
    const stage = stageOf(ratio, stages);
    meters.time = { elapsedMs, limitMs, ratio: outputRatio(ratio), stage };
    notice("time", stage, pickTemplate(copy.time, stage), {
      elapsedMs, limitMs, elapsedMin: minutes(elapsedMs), limitMin: minutes(limitMs),
      remainingMin: minutes(Math.max(0, limitMs - elapsedMs)), percent: percentOf(elapsedMs, limitMs), stage,
    });
  }

  if (policy.context) {
    const { capacityBytes, stages } = policy.context;
    const ratio = ratioOf(requiredBytes, capacityBytes);
    const stage = stageOf(ratio, stages);
    meters.context = { requiredBytes, capacityBytes, ratio: outputRatio(ratio), stage };
    notice("context", stage, pickTemplate(copy.context, stage), {
      requiredBytes, capacityBytes, freeBytes: capacityBytes - requiredBytes, percent: percentOf(requiredBytes, capacityBytes), stage,
    });
  }

  if (policy.edits && facts.blockIds.length > 0) {
    const { perBlockLimit, stages } = policy.edits;
    const blocks: TBlockMeter[] = [];
    for (const blockId of facts.blockIds) {
      const block = facts.blocks.get(blockId)!;
      const used = block.used;
      const limit = block.ownLimit ?? perBlockLimit;
      const ratio = ratioOf(used, limit);
      const stage = stageOf(ratio, stages);
      blocks.push({ blockId, used, limit, ratio: outputRatio(ratio), stage });
      // R6: a standing constraint is repeated every turn while it holds, whatever was delivered before.
      if (stage >= 1) {
        const template = pickTemplate(copy.edits, stage, used >= limit);
        candidates.push(rendered("edits", blockId, "state", stage, template, {
          blockId, used, limit, remaining: Math.max(0, limit - used), percent: percentOf(used, limit), stage,
        }));
      }
    }
    meters.edits = blocks;
  }

  const checkpoint = reviewCheckpoint(policy.review, turn, facts.elapsedMs);
  if (checkpoint >= 1 && checkpoint > ledger.review) {
    candidates.push(rendered("review", null, "suggestion", checkpoint, pickTemplate(copy.review, checkpoint), { checkpoint, turn }));
  }

  return { meters, candidates, checkpoint };
}

function minutes(ms: number): number {
  return Math.floor(ms / 60_000);
}

function rendered(
  key: Rendered["key"],
  subject: string | null,
  kind: Rendered["kind"],
  stage: number,
  template: string,
  values: Record<string, number | string>,
): Rendered {
  const text = fillTemplate(template, values);
  return { key, subject, kind, stage, text, bytes: reminderCost(text) };
}
