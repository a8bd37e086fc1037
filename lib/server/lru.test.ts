import { afterEach, describe, expect, it } from "vitest";
import { jsonTextBytes, runCache } from "./lru";

const sized = (bytes: number) => ({ bytes });

describe("the per-run caches", () => {
  afterEach(() => {
    delete process.env.CUESCOPE_RUN_CACHE_MB;
  });

  it("keep the most recently used entries up to their count", () => {
    const cache = runCache<{ bytes: number }>({ max: 2, sizeOf: (v) => v.bytes, maxBytes: 1_000 });
    cache.set("a", sized(1));
    cache.set("b", sized(1));
    expect(cache.get("a")).toEqual(sized(1)); // a is now the most recent
    cache.set("c", sized(1)); // evicts b
    expect(cache.get("b")).toBeUndefined();
    expect([...cache.keys()].sort()).toEqual(["a", "c"]);
    cache.set("a", sized(2)); // replacing does not grow it
    expect(cache.size).toBe(2);
    expect(cache.get("a")).toEqual(sized(2));
  });

  it("without a count, are bounded by bytes alone: many small entries stay, one large one evicts them", () => {
    const cache = runCache<{ bytes: number }>({ sizeOf: (v) => v.bytes, maxBytes: 10_000 });
    for (let i = 0; i < 5_000; i++) cache.set(`small-${i}`, sized(2));
    expect(cache.size).toBe(5_000);
    cache.set("large", sized(9_000));
    expect(cache.has("large")).toBe(true);
    expect(cache.calculatedSize).toBeLessThanOrEqual(10_000);
    expect(cache.size).toBeLessThan(600);
  });

  it("keep at most their byte bound, evicting the least recently used, and never keep an entry larger than it", () => {
    const cache = runCache<{ bytes: number }>({ max: 100, sizeOf: (v) => v.bytes, maxBytes: 1_000 });
    cache.set("a", sized(400));
    cache.set("b", sized(400));
    cache.get("a");
    cache.set("c", sized(400)); // 1,200 > 1,000: b, the least recently used, goes
    expect([...cache.keys()].sort()).toEqual(["a", "c"]);
    expect(cache.calculatedSize).toBe(800);
    cache.set("huge", sized(1_001));
    expect(cache.has("huge")).toBe(false);
    expect([...cache.keys()].sort()).toEqual(["a", "c"]);
  });

  it("take their byte bound from CUESCOPE_RUN_CACHE_MB, default 64 MB, and estimate JSON text at two bytes a character", () => {
    expect(runCache({ max: 1, sizeOf: () => 1 }).maxSize).toBe(64 * 1024 * 1024);
    process.env.CUESCOPE_RUN_CACHE_MB = "1.5";
    expect(runCache({ max: 1, sizeOf: () => 1 }).maxSize).toBe(1.5 * 1024 * 1024);
    process.env.CUESCOPE_RUN_CACHE_MB = "0.0000001"; // whole bytes, at least one
    expect(runCache({ max: 1, sizeOf: () => 1 }).maxSize).toBe(1);
    expect(jsonTextBytes('{"a":1}'.length)).toBe(14);
  });
});
