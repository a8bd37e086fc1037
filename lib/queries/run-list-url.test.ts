import { describe, expect, it } from "vitest";
import { hasFilters, parseRunListUrl, rangeStart, replayHref, runListHref } from "./run-list-url";

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
