import { describe, expect, it } from "vitest";
import { dayIn, formatInstantIn, parseZoneChoice, resolveZone, shiftDay, zoneLabel } from "./zone";

describe("time zones", () => {
  it.each([
    ["2026-11-29T10:02:05.120Z", "UTC", "2026-11-29 10:02:05 UTC"],
    ["2026-11-29T10:02:05.120Z", "Europe/Paris", "2026-11-29 11:02:05 Europe/Paris"],
    ["2026-07-01T10:02:05Z", "Europe/Paris", "2026-07-01 12:02:05 Europe/Paris"],
    ["2026-11-29T18:35:00Z", "Asia/Kolkata", "2026-11-30 00:05:00 Asia/Kolkata"],
    ["2026-03-29T00:59:59Z", "Europe/Paris", "2026-03-29 01:59:59 Europe/Paris"],
    ["2026-03-29T01:00:00Z", "Europe/Paris", "2026-03-29 03:00:00 Europe/Paris"],
    ["not a date", "UTC", "–"],
  ])("writes %s in %s as %s", (iso, zone, want) => {
    expect(formatInstantIn(iso, zone)).toBe(want);
  });

  it.each([
    // +05:30: the day starts at 18:30 UTC the day before.
    ["2026-03-28T18:29:59Z", "Asia/Kolkata", "2026-03-28"],
    ["2026-03-28T18:30:00Z", "Asia/Kolkata", "2026-03-29"],
    // The day Paris moves its clocks forward: 23 hours, from 23:00 UTC to 22:00 UTC.
    ["2026-03-28T22:59:59Z", "Europe/Paris", "2026-03-28"],
    ["2026-03-28T23:00:00Z", "Europe/Paris", "2026-03-29"],
    ["2026-03-29T21:59:59Z", "Europe/Paris", "2026-03-29"],
    ["2026-03-29T22:00:00Z", "Europe/Paris", "2026-03-30"],
    ["2026-03-29T23:59:59Z", "UTC", "2026-03-29"],
  ])("puts %s in %s on %s", (iso, zone, day) => {
    expect(dayIn(Date.parse(iso), zone)).toBe(day);
  });

  it("reads a cookie's choice, local by default, and resolves it", () => {
    expect(parseZoneChoice(undefined)).toBe("local");
    expect(parseZoneChoice("Mars/Olympus")).toBe("local");
    expect(parseZoneChoice("Asia/Kolkata")).toBe("Asia/Kolkata");
    expect(resolveZone("local", "America/New_York")).toBe("America/New_York");
    expect(resolveZone("local", undefined)).toBe("UTC");
    expect(resolveZone("UTC", "America/New_York")).toBe("UTC");
  });

  it("shifts days across months and names zones with their offset", () => {
    expect(shiftDay("2026-03-01", -1)).toBe("2026-02-28");
    expect(shiftDay("2026-12-31", 1)).toBe("2027-01-01");
    expect(zoneLabel("Asia/Kolkata", Date.parse("2026-01-01T00:00:00Z"))).toBe("Asia/Kolkata (GMT+5:30)");
  });
});
