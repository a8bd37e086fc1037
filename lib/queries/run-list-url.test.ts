import { describe, expect, it } from "vitest";
import {
  CLEARED_FILTERS,
  hasFigureFilters,
  hasFilters,
  parseRunListUrl,
  rangeStart,
  replayHref,
  runListHref,
  viewQuery,
} from "./run-list-url";

const NOW = Date.parse("2026-11-29T12:00:42.500Z");

describe("parseRunListUrl", () => {
  it("reads the plain list as newest first with no filters", () => {
    expect(parseRunListUrl({}, NOW)).toEqual({ ok: true, view: { sort: "-started" }, filters: { sort: "-started" } });
  });

  it("reads every filter, from an object or URLSearchParams alike", () => {
    const search = "q=%20VOO%20&status=live&agent=etf-agent&model=m-large&sort=-turns&cursor=abc&ignored=1";
    const fromParams = parseRunListUrl(new URLSearchParams(search), NOW);
    const fromObject = parseRunListUrl(Object.fromEntries(new URLSearchParams(search)), NOW);
    expect(fromParams).toEqual(fromObject);
    expect(fromParams).toEqual({
      ok: true,
      view: { q: "VOO", status: "live", agent: "etf-agent", model: "m-large", sort: "-turns", cursor: "abc" },
      filters: { q: "VOO", status: "live", agent: "etf-agent", model: "m-large", sort: "-turns", cursor: "abc" },
    });
  });

  it("turns a preset range into `from`, floored to the minute, and drops fixed from/to", () => {
    const parsed = parseRunListUrl({ range: "24h", from: "2020-01-01T00:00:00Z" }, NOW);
    expect(parsed).toEqual({
      ok: true,
      view: { range: "24h", sort: "-started" },
      filters: { from: "2026-11-28T12:00:00.000Z", sort: "-started" },
    });
    expect(rangeStart("7d", NOW)).toBe("2026-11-22T12:00:00.000Z");
  });

  it("keeps fixed instants when there is no preset", () => {
    const parsed = parseRunListUrl({ from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00+01:00" }, NOW);
    expect(parsed.ok && parsed.filters).toMatchObject({ from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00+01:00" });
  });

  it("treats blank values as unset and takes the last of repeated values", () => {
    expect(parseRunListUrl({ q: "  ", status: "", agent: ["a", "b"] }, NOW)).toEqual({
      ok: true,
      view: { agent: "b", sort: "-started" },
      filters: { agent: "b", sort: "-started" },
    });
  });

  it("names every bad parameter instead of failing", () => {
    const parsed = parseRunListUrl({ status: "sleeping", range: "1y", sort: "best", from: "yesterday" }, NOW);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems.map((p) => p.path).sort()).toEqual(["from", "range", "sort", "status"]);
    expect(parsed.problems.find((p) => p.path === "range")?.message).toMatch(/24h, 7d, 30d/);
    expect(parsed.view.sort).toBe("-started");
  });
});

describe("runListHref", () => {
  const view = { q: "VOO", status: "live" as const, sort: "-turns" as const, cursor: "abc" };

  it("writes the view back to a URL that parses to the same view", () => {
    const href = runListHref(view, { cursor: "def" });
    expect(href).toBe("/runs?q=VOO&status=live&sort=-turns&cursor=def");
    const parsed = parseRunListUrl(new URL(href, "http://x").searchParams, NOW);
    expect(parsed.view).toEqual({ ...view, cursor: "def" });
  });

  it("starts again at the first page when a filter or the sort changes", () => {
    expect(runListHref(view, { status: "completed" })).toBe("/runs?q=VOO&status=completed&sort=-turns");
    expect(runListHref(view, { cursor: undefined })).toBe("/runs?q=VOO&status=live&sort=-turns");
  });

  it("leaves out the default sort and cleared values", () => {
    expect(runListHref(view, { sort: "-started", q: undefined, status: undefined })).toBe("/runs");
  });

  it("replaces fixed instants when a preset is chosen", () => {
    expect(runListHref({ sort: "-started", from: "2026-11-01T00:00:00Z" }, { range: "7d" })).toBe("/runs?range=7d");
  });
});

describe("replayHref", () => {
  it.each([
    [{ sort: "-started" as const }, "/copy/replay"],
    [{ status: "completed" as const, agent: "a b", sort: "turns" as const, cursor: "12" }, "/copy/replay?status=completed&agent=a+b"],
    [{ range: "7d" as const, q: "voo", sort: "-started" as const }, "/copy/replay?q=voo&range=7d"],
    [
      { from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z", sort: "-started" as const },
      "/copy/replay?from=2026-11-01T00%3A00%3A00Z&to=2026-11-02T00%3A00%3A00Z",
    ],
  ])("carries the filters, never sort or paging %#", (view, href) => {
    expect(replayHref(view)).toBe(href);
  });
});

describe("hasFilters", () => {
  it("counts filters and windows, not sort or paging", () => {
    expect(hasFilters({ sort: "turns", cursor: "x" })).toBe(false);
    expect(hasFilters({ sort: "-started", range: "24h" })).toBe(true);
    expect(hasFilters({ sort: "-started", q: "VOO" })).toBe(true);
  });
});

describe("the experiment and arm filters in the URL", () => {
  it("reads an experiment and an arm, writes them back, clears them, and keeps them out of the replay's choice", () => {
    const parsed = parseRunListUrl({ experiment: "exp-a", arm: "holdout", agent: "etf-agent" }, NOW);
    expect(parsed).toEqual({
      ok: true,
      view: { agent: "etf-agent", experiment: "exp-a", arm: "holdout", sort: "-started" },
      filters: { agent: "etf-agent", experiment: "exp-a", arm: "holdout", sort: "-started" },
    });
    const href = runListHref(parsed.view);
    expect(href).toBe("/runs?agent=etf-agent&experiment=exp-a&arm=holdout");
    expect(parseRunListUrl(new URL(href, "http://x").searchParams, NOW)).toEqual(parsed);
    expect([hasFilters(parsed.view), hasFigureFilters(parsed.view)]).toEqual([true, true]);
    expect(replayHref(parsed.view)).toBe("/copy/replay?agent=etf-agent");
    expect(runListHref(parsed.view, CLEARED_FILTERS)).toBe("/runs");
  });

  it("names an arm too long as a problem of `arm`", () => {
    const parsed = parseRunListUrl({ arm: "a".repeat(201) }, NOW);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problems.map((p) => p.path)).toEqual(["arm"]);
  });
});

describe("the figure filters, sorts and page size in the URL", () => {
  it("reads has-violations, has-drops, a finding code, a figure sort and a page size, and writes them back", () => {
    const parsed = parseRunListUrl({ hasViolations: "true", hasDrops: "1", finding: "FREE_REQUEST", sort: "-dropRate", limit: "200" }, NOW);
    expect(parsed).toEqual({
      ok: true,
      view: { hasViolations: "1", hasDrops: "1", finding: "FREE_REQUEST", sort: "-dropRate", limit: "200" },
      filters: { hasViolations: true, hasDrops: true, finding: "FREE_REQUEST", sort: "-dropRate", limit: 200 },
    });
    if (!parsed.ok) return;
    const href = runListHref(parsed.view);
    expect(href).toBe("/runs?hasViolations=1&hasDrops=1&finding=FREE_REQUEST&sort=-dropRate&limit=200");
    expect(parseRunListUrl(new URL(href, "http://x").searchParams, NOW)).toEqual(parsed);
    expect(hasFilters(parsed.view)).toBe(true);
    expect(hasFigureFilters(parsed.view)).toBe(true);
    // The replay chooses runs by search, facets and time only.
    expect(replayHref(parsed.view)).toBe("/copy/replay");
  });

  it("leaves off flags set to 0, the default page size, and the cursor of a saved query", () => {
    const parsed = parseRunListUrl({ hasViolations: "0", hasDrops: "false", limit: "50", cursor: "abc", sort: "findings" }, NOW);
    expect(parsed.ok && parsed.filters).toEqual({ sort: "findings", limit: 50, cursor: "abc" });
    expect(viewQuery(parsed.view)).toBe("sort=findings");
    expect(runListHref(parsed.view, CLEARED_FILTERS)).toBe("/runs?sort=findings");
  });

  it("names a bad finding code, flag and page size", () => {
    const parsed = parseRunListUrl({ finding: "NOPE", hasDrops: "yes" }, NOW);
    expect(!parsed.ok && parsed.problems.map((p) => p.path).sort()).toEqual(["finding", "hasDrops"]);
    const size = parseRunListUrl({ limit: "75" }, NOW);
    expect(!size.ok && size.problems).toEqual([{ path: "limit", message: "expected one of 50, 100, 200" }]);
  });
});
