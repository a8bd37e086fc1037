import { sha256 } from "@noble/hashes/sha2.js";

/** One arm as assignment sees it: its name and integer weight (contract §10, assignment). */
export interface WeightedArm {
  name: string;
  weight: number;
}

const TWO_64 = BigInt(2) ** BigInt(64);
const utf8 = new TextEncoder();

/**
 * The position `x` in `[0, totalWeight)` that decides the arm of `runId` in `experimentId`
 * (contract §10, assignment): SHA-256 of `experimentId:runId`, its first 8 bytes as an unsigned
 * big-endian integer `u`, and `x = floor(u × W / 2^64)` computed in integers, so every language
 * gets the same arm.
 */
export function assignmentPosition(experimentId: string, runId: string, totalWeight: number): number {
  if (!Number.isSafeInteger(totalWeight) || totalWeight <= 0)
    throw new RangeError(`the weights must sum to a positive integer, got ${totalWeight}`);
  const digest = sha256(utf8.encode(`${experimentId}:${runId}`));
  let u = BigInt(0);
  for (let i = 0; i < 8; i++) u = (u << BigInt(8)) | BigInt(digest[i]);
  return Number((u * BigInt(totalWeight)) / TWO_64);
}

/**
 * The arm of `runId` in `experimentId`: the first arm whose cumulative weight exceeds the run's
 * position (contract §10, assignment). Weights are integers >= 0 with a positive sum; an arm of
 * weight 0 is never chosen. Deterministic: the server, the SDK and any client agree.
 */
export function assignArm<A extends WeightedArm>(experimentId: string, runId: string, arms: readonly A[]): A {
  let total = 0;
  for (const arm of arms) {
    if (!Number.isSafeInteger(arm.weight) || arm.weight < 0)
      throw new RangeError(`arm ${JSON.stringify(arm.name)}: weight must be an integer >= 0, got ${arm.weight}`);
    total += arm.weight;
  }
  const x = assignmentPosition(experimentId, runId, total);
  let cumulative = 0;
  for (const arm of arms) {
    cumulative += arm.weight;
    if (x < cumulative) return arm;
  }
  /* c8 ignore next -- x < total by construction */
  throw new RangeError("no arm: the weights must sum to a positive integer");
}
