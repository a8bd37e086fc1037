const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"; // Crockford base32: sorts like its values

let lastMs = -1;
let lastRandom: number[] = [];

function randomDigits(count: number): number[] {
  const bytes = new Uint8Array(count);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b & 31);
}

/**
 * A ULID-like id: 10 base32 digits of the time in ms, then 16 random ones (26 characters, no
 * dependency). Ids made later sort after earlier ones; within one millisecond the random part is
 * incremented (monotonic), so ids from one process are strictly increasing.
 */
export function newId(now = Date.now()): string {
  let random: number[];
  if (now <= lastMs) {
    now = lastMs;
    random = lastRandom.slice();
    let i = random.length - 1;
    while (i >= 0 && random[i] === 31) random[i--] = 0;
    if (i < 0) throw new Error("cuescope: id space of this millisecond exhausted");
    random[i]++;
  } else {
    random = randomDigits(16);
  }
  lastMs = now;
  lastRandom = random;
  let time = "";
  for (let i = 0, t = now; i < 10; i++, t = Math.floor(t / 32)) time = ALPHABET[t % 32] + time;
  return time + random.map((d) => ALPHABET[d]).join("");
}
