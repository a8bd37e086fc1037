import { canonicalJson } from "./canonical";

/**
 * A fingerprint of a JSON value, key order aside: two 53-bit hashes (cyrb53 with two seeds) of its
 * canonical JSON text, as 28 hex digits. It tells values apart, it does not protect anything: use
 * it to check that stored state belongs to the same input, never as a secret.
 */
export function fingerprint(value: unknown): string {
  const text = canonicalJson(value);
  return hex53(cyrb53(text, 0x9e3779b9)) + hex53(cyrb53(text, 0x85ebca6b));
}

function cyrb53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ unit, 2654435761);
    h2 = Math.imul(h2 ^ unit, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

function hex53(n: number): string {
  return n.toString(16).padStart(14, "0");
}
