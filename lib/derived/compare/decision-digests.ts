import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import type { TTurnDecision } from "@/lib/contracts";

/**
 * A run's decisions in digests per bucket of turn numbers (run_decision_digests), so two runs can
 * be compared without reading either whole (docs/compare.md): bucket `k` holds turns
 * `[k × DIGEST_BUCKET_TURNS, (k + 1) × DIGEST_BUCKET_TURNS)` by turn number, whatever turns were
 * skipped, so the same bucket of two runs covers the same turns.
 */
export const DIGEST_BUCKET_TURNS = 256;

export function bucketOfTurn(turn: number): number {
  return Math.floor(turn / DIGEST_BUCKET_TURNS);
}

/**
 * What a turn decided, as compared between runs: each reminder's key, subject, kind, stage and fate
 * (delivered, dropped…), in presentation order, and the Reviewer candidate's checkpoint and
 * admission. Not the reminder's text or bytes, which are the copy's wording: two runs under other
 * copy that give the same reminders with the same fate decided the same.
 */
export function decisionSignature(turn: TTurnDecision): string {
  return `[${remindersSignature(turn)},${reviewerSignature(turn)}]`;
}

/** The reminders part of a turn's signature. */
export function remindersSignature(turn: TTurnDecision): string {
  return JSON.stringify(turn.reminders.map((r) => [r.key, r.subject, r.kind, r.stage, r.status]));
}

/** The Reviewer part of a turn's signature. */
export function reviewerSignature(turn: TTurnDecision): string {
  const { reviewer } = turn;
  return JSON.stringify(reviewer ? [reviewer.candidate.checkpoint, reviewer.admission.granted, reviewer.admission.reasons] : null);
}

export interface DecisionDigest {
  bucket: number;
  /** SHA-256 (hex) of the bucket's rebuilt turns, each its number and signature. */
  digest: string;
}

/** The digests of the buckets that hold some of `turns` (ascending turn numbers), in bucket order. */
export function decisionDigests(turns: readonly TTurnDecision[]): DecisionDigest[] {
  const digests: DecisionDigest[] = [];
  let at = 0;
  while (at < turns.length) {
    const bucket = bucketOfTurn(turns[at].turn);
    let text = "";
    for (; at < turns.length && bucketOfTurn(turns[at].turn) === bucket; at++)
      text += `${turns[at].turn}:${decisionSignature(turns[at])}\n`;
    digests.push({ bucket, digest: bytesToHex(sha256(utf8ToBytes(text))) });
  }
  return digests;
}
