import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/server/errors";
import { FailureLimiter, limitKey, RecentlyAccepted } from "./rate-limit";

function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (seconds: number) => (t += seconds * 1000) };
}

describe("wrong-credential limiter", () => {
  it("allows a burst of failures, then refuses with the seconds to wait, then lets one through per refill", () => {
    const c = clock();
    const limiter = new FailureLimiter(10, 6, c.now);
    for (let i = 0; i < 9; i++) expect(limiter.fail("10.0.0.1")).toBe(0);
    expect(limiter.retryAfter("10.0.0.1")).toBe(0);
    expect(limiter.fail("10.0.0.1")).toBe(6); // the 10th failure empties the bucket
    const refused = (() => {
      try {
        limiter.assertMayTry("10.0.0.1", "API key checks");
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).kind).toBe("rate_limited");
    expect((refused as DomainError).retryAfterSeconds).toBe(6);
    c.advance(3);
    expect(limiter.retryAfter("10.0.0.1")).toBe(3);
    c.advance(3);
    expect(limiter.retryAfter("10.0.0.1")).toBe(0); // one more try
    expect(limiter.fail("10.0.0.1")).toBe(6);
    c.advance(60);
    expect(limiter.retryAfter("10.0.0.1")).toBe(0);
    expect(limiter.size).toBe(0); // a full bucket is forgotten
  });

  it("counts each address on its own", () => {
    const c = clock();
    const limiter = new FailureLimiter(3, 6, c.now);
    for (let i = 0; i < 3; i++) limiter.fail("10.0.0.1");
    expect(limiter.retryAfter("10.0.0.1")).toBeGreaterThan(0);
    expect(limiter.retryAfter("10.0.0.2")).toBe(0);
    expect(limiter.retryAfter("127.0.0.1")).toBe(0);
  });

  it("keeps its memory bounded, forgetting the least recently failed addresses first", () => {
    const c = clock();
    const limiter = new FailureLimiter(2, 6, c.now, 100);
    for (let i = 0; i < 1000; i++) {
      limiter.fail(`10.1.${i >> 8}.${i & 255}`);
      limiter.fail(`10.1.${i >> 8}.${i & 255}`);
    }
    expect(limiter.size).toBeLessThanOrEqual(100);
    expect(limiter.retryAfter("10.1.3.231")).toBeGreaterThan(0); // the last one is still blocked
  });

  it("counts IPv6 per /64", () => {
    expect(limitKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(limitKey("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(limitKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(limitKey("::1")).toBe("0:0:0:0::/64");
    expect(limitKey("192.0.2.1")).toBe("192.0.2.1");
  });
});

describe("recently accepted credentials", () => {
  it("remembers a credential for its time to live, forgetting the least recently used beyond its size", () => {
    const time = clock();
    const set = new RecentlyAccepted(2, 10_000, time.now);
    expect(set.has("a")).toBe(false);
    set.add("a");
    set.add("b");
    expect(set.has("a") && set.has("b")).toBe(true);
    set.add("a"); // used again: b is now the least recently used
    set.add("c");
    expect([set.has("a"), set.has("b"), set.has("c")]).toEqual([true, false, true]);
    time.advance(11);
    expect(set.has("a")).toBe(false);
  });
});
