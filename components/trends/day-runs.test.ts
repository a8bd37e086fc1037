import { describe, expect, it } from "vitest";
import { dayRunsHref } from "./trends-page";

const DAY = { start: "2026-11-29T18:30:00.000Z", end: "2026-11-30T18:30:00.000Z" };
const params = (href: string) => Object.fromEntries(new URL(href, "http://cuescope.test").searchParams);

describe("a trends day's runs list", () => {
  it.each([
    [undefined, {}],
    ["drops", { hasDrops: "1", sort: "-dropRate" }],
    ["findings", { sort: "-findings" }],
    ["violations", { hasViolations: "1" }],
  ] as const)("from a chart of %s", (focus, extra) => {
    const href = dayRunsHref(DAY, { agent: "etf-agent" }, focus);
    expect(href.startsWith("/runs?")).toBe(true);
    expect(params(href)).toEqual({ agent: "etf-agent", from: DAY.start, to: DAY.end, ...extra });
  });
});
