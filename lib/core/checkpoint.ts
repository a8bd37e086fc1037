import type { TPolicy } from "@/lib/contracts";

/**
 * Review checkpoint k (R7): the larger of floor(turn / everyTurns) and floor(elapsedMs /
 * afterMs), leaving out a term that cannot be computed; 0 without any (and without a review section).
 */
export function reviewCheckpoint(review: TPolicy["review"], turn: number, elapsedMs: number | undefined): number {
  if (!review) return 0;
  let k = 0;
  if (review.everyTurns !== undefined) k = Math.max(k, Math.floor(turn / review.everyTurns));
  if (review.afterMs !== undefined && elapsedMs !== undefined) k = Math.max(k, Math.floor(elapsedMs / review.afterMs));
  return k;
}
