/** Nanoseconds since the Unix epoch as an RFC 3339 instant, truncated to milliseconds (UTC). */
export function nanosToIso(nanos: bigint): string {
  return new Date(Number(nanos / 1_000_000n)).toISOString();
}

/** Nanoseconds as 20 zero-padded digits: ids built with it sort by time. */
export function nanosKey(nanos: bigint): string {
  return nanos.toString().padStart(20, "0");
}

/** Milliseconds between two times in nanoseconds (null when either is not set or they run backwards). */
export function durationMs(start: bigint, end: bigint): number | null {
  if (start === 0n || end === 0n || end < start) return null;
  return Number(end - start) / 1_000_000;
}
