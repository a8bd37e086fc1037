import { describe, expect, it } from "vitest";
import {
  parseReviewerUrl,
  reviewerApiSearch,
  reviewerExportHref,
  reviewerHref,
  reviewerPageSize,
  runTurnHref,
  hasReviewerFilters,
} from "./reviewer-url";

const NOW = Date.parse("2026-11-29T10:00:42.500Z");

describe("Reviewer URL ⇄ filters", () => {
  it("reads the plain page as no filters", () => {
    expect(parseReviewerUrl({}, NOW)).toEqual({ ok: true, view: {}, filters: {}, pageSize: 50 });
    expect(reviewerHref({})).toBe("/reviewer");
  });

  it("turns a range preset into `from` (floored to the minute) and `run` into runId", () => {
    const parsed = parseReviewerUrl(new URLSearchParams("agent=etf-agent&model=m-large&run=r-17&range=24h&violations=1"), NOW);
    expect(parsed).toEqual({
      ok: true,
      view: { agent: "etf-agent", model: "m-large", run: "r-17", range: "24h", violations: true },
      filters: { agent: "etf-agent", model: "m-large", runId: "r-17", from: "2026-11-28T10:00:00.000Z", violations: true },
      pageSize: 50,
    });
  });

  it("round-trips a view through its URL", () => {
    const view = { agent: "a b", range: "7d" as const, violations: true, cursor: "abc" };
    const href = reviewerHref(view, { cursor: "abc" });
    expect(href).toBe("/reviewer?agent=a+b&range=7d&violations=1&cursor=abc");
    const parsed = parseReviewerUrl(new URLSearchParams(href.split("?")[1]), NOW);
    expect(parsed.view).toEqual(view);
  });

  it("goes back to the first page on any change but the cursor; a range replaces fixed instants", () => {
    const view = { from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z", cursor: "c1" };
    expect(reviewerHref(view, { violations: true })).toBe(
      "/reviewer?from=2026-11-01T00%3A00%3A00Z&to=2026-11-02T00%3A00%3A00Z&violations=1",
    );
    expect(reviewerHref(view, { range: "30d" })).toBe("/reviewer?range=30d");
    expect(reviewerHref({ violations: true, cursor: "c1" }, { violations: false })).toBe("/reviewer");
    expect(reviewerHref({ agent: "x" }, { cursor: "c2" })).toBe("/reviewer?agent=x&cursor=c2");
  });

  it("keeps the order in the URL and the API filters (newest is the plain default), and a new order starts at page one", () => {
    expect(parseReviewerUrl({ sort: "violations", violations: "1" }, NOW)).toEqual({
      ok: true,
      view: { sort: "violations", violations: true },
      filters: { sort: "violations", violations: true },
      pageSize: 50,
    });
    expect(parseReviewerUrl({ sort: "newest" }, NOW)).toEqual({ ok: true, view: {}, filters: {}, pageSize: 50 });
    expect(reviewerHref({ agent: "x", cursor: "c1" }, { sort: "oldest" })).toBe("/reviewer?agent=x&sort=oldest");
    expect(reviewerHref({ sort: "oldest" }, { sort: "newest" })).toBe("/reviewer");
    expect(reviewerExportHref({ sort: "violations" }, "csv")).toBe("/api/v1/reviewer/candidates/export?format=csv&sort=violations");
    const bad = parseReviewerUrl({ sort: "loudest" }, NOW);
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.problems).toEqual([
      { path: "sort", message: expect.stringContaining("expected one of newest, oldest, violations") },
    ]);
  });

  it("reads the rows a page from the URL (50 is the plain default) and names a size it does not offer", () => {
    expect(parseReviewerUrl({ limit: "200" }, NOW)).toEqual({ ok: true, view: { limit: "200" }, filters: {}, pageSize: 200 });
    expect(parseReviewerUrl({ limit: "50" }, NOW)).toEqual({ ok: true, view: {}, filters: {}, pageSize: 50 });
    expect(reviewerPageSize({ limit: "500" })).toBe(500);
    expect(reviewerPageSize({})).toBe(50);
    expect(reviewerHref({ limit: "100", cursor: "c1" }, { violations: true })).toBe("/reviewer?violations=1&limit=100");
    expect(reviewerHref({ limit: "100" }, { limit: "50" })).toBe("/reviewer");
    for (const bad of ["70", "1e2", "-50", "50.0"]) {
      const parsed = parseReviewerUrl({ limit: bad }, NOW);
      expect(!parsed.ok && parsed.problems, bad).toEqual([{ path: "limit", message: `expected one of 50, 100, 200, 500, got "${bad}"` }]);
    }
  });

  it("accepts true/false for the flag, as the API does, and writes it back as 1", () => {
    expect(parseReviewerUrl({ violations: "true" }, NOW)).toMatchObject({
      ok: true,
      view: { violations: true },
      filters: { violations: true },
    });
    expect(parseReviewerUrl({ violations: "0" }, NOW)).toEqual({ ok: true, view: {}, filters: {}, pageSize: 50 });
  });

  it("names the URL's bad parameters instead of failing", () => {
    const parsed = parseReviewerUrl({ range: "1y", violations: "maybe", from: "yesterday", run: [""] }, NOW);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems.map((p) => p.path).sort()).toEqual(["from", "range", "violations"]);
    expect(parsed.problems.find((p) => p.path === "range")?.message).toContain("24h, 7d, 30d");
    expect(parsed.view.range).toBe("1y");
  });

  it("knows when the view narrows the audit", () => {
    expect(hasReviewerFilters({ cursor: "c" })).toBe(false);
    expect(hasReviewerFilters({ violations: true })).toBe(true);
  });

  it("builds API and export URLs with the same filters (no cursor in an export)", () => {
    const filters = { agent: "etf", runId: "r 17", violations: true, cursor: "c9", from: "2026-11-28T10:00:00.000Z" };
    expect(reviewerApiSearch(filters, { limit: 50 })).toBe(
      "?agent=etf&cursor=c9&from=2026-11-28T10%3A00%3A00.000Z&limit=50&runId=r+17&violations=1",
    );
    expect(reviewerExportHref(filters, "csv")).toBe(
      "/api/v1/reviewer/candidates/export?agent=etf&format=csv&from=2026-11-28T10%3A00%3A00.000Z&runId=r+17&violations=1",
    );
    expect(reviewerExportHref({}, "json")).toBe("/api/v1/reviewer/candidates/export?format=json");
  });

  it("links a row to its run page at its turn", () => {
    expect(runTurnHref("etf fees/1", 40)).toBe("/runs/etf%20fees%2F1?turn=40");
  });
});
