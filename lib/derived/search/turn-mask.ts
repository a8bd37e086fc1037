import { DIGEST_BUCKET_TURNS } from "@/lib/derived/compare/decision-digests";

/**
 * The turns of one bucket of 256 turn numbers (the decision digests' buckets) as a bit mask written
 * in 64 hexadecimal digits: turn `bucket × 256 + i` is bit `i`, digit `floor(i / 4)` from the left,
 * where it is worth 8 for `i % 4 = 0` down to 1 for `i % 4 = 3`. So the mask reads left to right in
 * turn order, and a bucket's turns are 64 characters however many match (a search reads masks, never
 * lists of turn numbers: node-postgres parses an array's text character by character).
 */
export const MASK_TURNS = DIGEST_BUCKET_TURNS;
export const MASK_DIGITS = MASK_TURNS / 4;

/** A bucket's bits, one byte per four turns (the low nibble used), to set and then write. */
export type MaskBits = Uint8Array;

export function emptyMask(): MaskBits {
  return new Uint8Array(MASK_DIGITS);
}

/** Sets the bit of `turn` (a turn of the mask's bucket). */
export function setTurn(bits: MaskBits, turn: number): void {
  const i = turn % MASK_TURNS;
  bits[i >> 2] |= 8 >> (i & 3);
}

export function maskText(bits: MaskBits): string {
  let text = "";
  for (const nibble of bits) text += nibble.toString(16);
  return text;
}

/** The bits of a stored mask (64 hexadecimal digits); an error for anything else. */
export function parseMask(text: string): MaskBits {
  if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`not a turn mask: ${JSON.stringify(text.slice(0, 80))}`);
  const bits = emptyMask();
  for (let k = 0; k < MASK_DIGITS; k++) bits[k] = parseInt(text[k], 16);
  return bits;
}

/** The turns a mask of `bucket` holds, ascending. */
export function maskTurns(bucket: number, bits: MaskBits): number[] {
  const turns: number[] = [];
  for (let k = 0; k < MASK_DIGITS; k++) {
    const nibble = bits[k];
    if (nibble === 0) continue;
    for (let j = 0; j < 4; j++) if (nibble & (8 >> j)) turns.push(bucket * MASK_TURNS + k * 4 + j);
  }
  return turns;
}

const ONES = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

/** How many turns a mask holds. */
export function maskCount(bits: MaskBits): number {
  let n = 0;
  for (const nibble of bits) n += ONES[nibble];
  return n;
}
