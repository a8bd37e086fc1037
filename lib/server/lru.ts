import { LRUCache } from "lru-cache";
import { env } from "./env";

/**
 * The in-process caches of derived data that can always be rebuilt (a run's parsed decisions, its
 * parsed findings, its built timelines, its what-if replays): never for anything that must survive a restart or be
 * shared between processes. Each is least-recently-used and bounded by the estimated size in bytes
 * of its entries (a 20,000-turn run's decisions take about 50 MB, a short run's a few kB, so a count
 * of entries bounds nothing): at most CUESCOPE_RUN_CACHE_MB (default 64) each, so the four
 * together hold at most four times that. An entry estimated larger than the bound is not kept
 * (its reader reads it again each time).
 */
export function runCache<V extends object>(options: {
  /** At most this many entries, however small (default: no count, the byte bound alone). */
  max?: number;
  /** The entry's estimated size in bytes (see jsonTextBytes). */
  sizeOf: (value: V) => number;
  /** The byte bound; default CUESCOPE_RUN_CACHE_MB. */
  maxBytes?: number;
}): LRUCache<string, V> {
  return new LRUCache<string, V>({
    ...(options.max !== undefined ? { max: options.max } : {}),
    maxSize: Math.max(1, Math.floor(options.maxBytes ?? env("CUESCOPE_RUN_CACHE_MB") * 1024 * 1024)),
    sizeCalculation: (value) => Math.max(1, Math.ceil(options.sizeOf(value))),
  });
}

/**
 * The estimated memory of a value whose JSON text has `chars` characters: two bytes a character
 * (strings are UTF-16). The objects parsed from the text take a comparable amount, so the same
 * estimate serves for them.
 */
export function jsonTextBytes(chars: number): number {
  return chars * 2;
}
