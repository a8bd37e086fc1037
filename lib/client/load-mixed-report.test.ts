import { describe, expect, it } from "vitest";
import { NO_RETRY_AFTER_503, statusOf } from "./load";
import { formatMixedReport, isFailingStatus, mixedFailures, summarize, type MixedOutcome, type Sample } from "./load-mixed-report";
import { readsAt } from "./load-mixed";

const sample = (cls: Sample["cls"], endpoint: string, status: string, ms: number): Sample => ({ cls, endpoint, status, ms });

/** A load that went as it must; each case below changes one thing. */
function outcome(change: Partial<MixedOutcome> = {}): MixedOutcome {
  return {
    samples: [
      sample("ingest", "ingest", "207", 40),
      sample("read", "runs-list", "200", 120),
      sample("read-other", "facets", "200", 15),
      sample("comment", "comment-post", "201", 30),
      sample("replay", "replay-start", "202", 25),
      sample("health", "health", "200", 1000),
    ],
    durationMs: 60_000,
    acknowledged: 10,
    stored: 10,
    missing: 0,
    storedTwice: 0,
    eventErrors: 0,
    worstLagMs: 500,
    replays: { started: 1, finished: 1 },
    ...change,
  };
}

describe("the mixed load's summary", () => {
  it("gives each class its count, statuses and nearest-rank p50/p95/max, in class order", () => {
    // 20 read latencies 10, 20, …, 200 ms: nearest rank p50 = 10th = 100, p95 = 19th = 190.
    const reads = Array.from({ length: 20 }, (_, i) =>
      sample("read", i % 2 === 0 ? "runs-list" : "run-page", i === 3 ? "409" : "200", (20 - i) * 10),
    );
    const samples = [sample("health", "health", "200", 7), ...reads, sample("ingest", "ingest", "207", 3)];
    expect(summarize(samples, "cls")).toEqual([
      { name: "ingest", count: 1, statuses: { 207: 1 }, p50: 3, p95: 3, max: 3 },
      { name: "read", count: 20, statuses: { 200: 19, 409: 1 }, p50: 100, p95: 190, max: 200 },
      { name: "health", count: 1, statuses: { 200: 1 }, p50: 7, p95: 7, max: 7 },
    ]);
    // By endpoint: runs-list has the even i (200, 180, …, 20 ms), run-page the odd (190, …, 10 ms).
    const byEndpoint = summarize(samples, "endpoint");
    expect(byEndpoint.map((s) => s.name)).toEqual(["ingest/ingest", "read/run-page", "read/runs-list", "health/health"]);
    expect(byEndpoint[1]).toEqual({ name: "read/run-page", count: 10, statuses: { 200: 9, 409: 1 }, p50: 90, p95: 190, max: 190 });
    expect(byEndpoint[2]).toEqual({ name: "read/runs-list", count: 10, statuses: { 200: 10 }, p50: 100, p95: 200, max: 200 });
  });

  it.each([
    ["200", false],
    ["409", false],
    ["429", false],
    ["503", false],
    [NO_RETRY_AFTER_503, true],
    ["500", true],
    ["502", true],
    ["504", true],
    ["network", true],
  ])("counts status %s as failing: %s", (status, failing) => {
    expect(isFailingStatus(status)).toBe(failing);
  });

  it("tells a 503 that says when to retry from one that does not", () => {
    const answer = (status: number, headers: Record<string, string> = {}) => statusOf({ status, headers: new Headers(headers) });
    expect(answer(503, { "retry-after": "5" })).toBe("503");
    expect(answer(503)).toBe(NO_RETRY_AFTER_503);
    expect(answer(500, { "retry-after": "5" })).toBe("500");
    expect(answer(207)).toBe("207");
  });
});

describe("the mixed load's verdict", () => {
  it.each<[string, Partial<MixedOutcome>, RegExp[]]>([
    ["everything at its limit passes", {}, []],
    [
      "a 500 of one endpoint",
      { samples: [...outcome().samples, sample("read", "decisions", "500", 9)] },
      [/^1 requests answered a 5xx .*read\/decisions 500×1/],
    ],
    ["a 503 with Retry-After passes", { samples: [...outcome().samples, sample("ingest", "ingest", "503", 9)] }, []],
    [
      "a 503 without Retry-After and a request without answer",
      {
        samples: [
          ...outcome().samples,
          sample("ingest", "ingest", NO_RETRY_AFTER_503, 9),
          sample("read-other", "trends", "network", 60_000),
        ],
      },
      [/^2 requests .*ingest\/ingest 503 without Retry-After×1; read-other\/trends network×1/],
    ],
    ["one acknowledged event not stored", { stored: 9, missing: 1 }, [/^acknowledged 10 ≠ stored 9 \(missing 1, stored twice 0\)/]],
    ["an event stored twice", { storedTwice: 1 }, [/stored twice 1/]],
    ["event errors", { eventErrors: 2 }, [/^2 events/]],
    [
      "a health answer 1 ms over the limit",
      { samples: [...outcome().samples, sample("health", "health", "200", 1001)] },
      [/^health answered in 1001 ms at worst \(limit 1000 ms\)/],
    ],
    ["no health asked", { samples: outcome().samples.filter((s) => s.cls !== "health") }, [/^health was never asked/]],
    ["lag 1 ms over the limit", { worstLagMs: 501 }, [/^event-loop lag 501 ms \(limit 500 ms\)/]],
    ["lag not reported", { worstLagMs: null }, [/did not report its event-loop lag/]],
  ])("%s", (_name, change, expected) => {
    const failures = mixedFailures(outcome(change));
    expect(failures).toHaveLength(expected.length);
    expected.forEach((pattern, i) => expect(failures[i]).toMatch(pattern));
  });

  it("prints every class, every status, health's latency, the lag and the verdict", () => {
    const text = formatMixedReport(outcome({ worstLagMs: 640 }));
    expect(text).toContain("6 requests (200×3 201×1 202×1 207×1)");
    expect(text).toMatch(/^read-other\s+1\s+15\s+15\s+15\s+200×1$/m);
    expect(text).toMatch(/^health:\s+p95 1000 ms, max 1000 ms \(limit 1000 ms\)$/m);
    expect(text).toMatch(/^FAIL: event-loop lag 640 ms/m);
    expect(formatMixedReport(outcome())).toMatch(/^PASS: /m);
  });
});

describe("the mixed load's readers", () => {
  it("read pages only with a session, and every run in turn", () => {
    const runs = ["a", "b/c"];
    const withPages = readsAt(0, runs, true);
    const apiOnly = readsAt(0, runs, false);
    expect(withPages.filter((r) => r.page).map((r) => r.endpoint)).toEqual([
      "runs-page",
      "run-page",
      "run-page-turn",
      "reviewer-page",
      "trends-page",
    ]);
    expect(apiOnly.every((r) => !r.page && r.path.startsWith("/api/v1/"))).toBe(true);
    expect(apiOnly).toHaveLength(withPages.length - 5);
    expect(readsAt(1, runs, false).find((r) => r.endpoint === "decisions")?.path).toBe("/api/v1/runs/b%2Fc/decisions");
    expect(readsAt(2, runs, false).find((r) => r.endpoint === "decisions")?.path).toBe("/api/v1/runs/a/decisions");
  });
});
