import { describe, expect, it } from "vitest";
import { formatInstant, formatRelative, formatRequestsUsage, formatTimeUsage, requestsUsageParts } from ".";

const NOW = Date.parse("2026-11-29T12:00:00.000Z");

describe("formatInstant", () => {
  it("writes an instant in UTC, whatever its zone", () => {
    expect(formatInstant("2026-11-29T10:02:05.120Z")).toBe("2026-11-29 10:02:05 UTC");
    expect(formatInstant("2026-11-29T11:02:05+01:00")).toBe("2026-11-29 10:02:05 UTC");
    expect(formatInstant("not a date")).toBe("–");
  });
});

describe("formatRelative", () => {
  it.each([
    ["2026-11-29T11:59:30.000Z", "just now"],
    ["2026-11-29T12:00:30.000Z", "just now"], // a little in the future: clock skew
    ["2026-11-29T11:48:00.000Z", "12 min ago"],
    ["2026-11-29T07:00:00.000Z", "5 h ago"],
    ["2026-11-26T11:00:00.000Z", "3 d ago"],
    ["2026-08-01T00:00:00.000Z", "2026-08-01"],
  ])("%s → %s", (iso, text) => {
    expect(formatRelative(iso, NOW)).toBe(text);
  });
});

describe("usage formatters", () => {
  it("writes requests used of usable with the reserve, in requests", () => {
    expect(formatRequestsUsage({ used: 48, usable: 54, reserve: 6 })).toBe("48/54 (+6 reserve)");
    expect(formatRequestsUsage({ used: 1200, usable: 1500, reserve: 0 })).toBe("1,200/1,500");
    expect(requestsUsageParts({ used: 48, usable: 54, reserve: 6 })).toEqual({ used: "48/54", reserve: "(+6 reserve)" });
  });

  it("writes time used of the limit in minutes", () => {
    expect(formatTimeUsage(1_860_000, 3_600_000)).toBe("31/60 min");
    expect(formatTimeUsage(90_000, 1_800_000)).toBe("1.5/30 min");
  });
});
