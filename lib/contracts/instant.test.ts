import { describe, expect, it } from "vitest";
import { parseCommonInstantMs, parseInstant, ZTimestamp } from "./primitives";

/**
 * The reference: the regex parser alone, counting days with Date's own calendar (setUTCFullYear,
 * so years 0–99 stay themselves) and placing a leap second at the minute's last millisecond.
 */
function referenceParseInstant(text: string): { ms: number; sub: string } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac = "", zone] = m;
  const year = +y,
    month = +mo,
    day = +d,
    hour = +h,
    minute = +mi,
    second = +s;
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  const daysInMonth = date.getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return null;
  if (hour > 23 || minute > 59 || second > 60) return null;
  let offsetMin = 0;
  if (zone !== "Z" && zone !== "z") {
    const oh = +zone.slice(1, 3),
      om = +zone.slice(4, 6);
    if (oh > 23 || om > 59) return null;
    offsetMin = (zone[0] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const digits = frac.slice(1);
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, 0, 0);
  const minuteMs = at.getTime() - offsetMin * 60_000;
  if (second === 60) return { ms: minuteMs + 59_999, sub: `:${digits.replace(/0+$/, "")}` };
  const ms = minuteMs + second * 1000 + (digits.length ? +digits.slice(0, 3).padEnd(3, "0") : 0);
  return { ms, sub: digits.slice(3).replace(/0+$/, "") };
}

const TRICKY = [
  "2026-11-29T10:00:05.120Z",
  "1970-01-01T00:00:00.000Z",
  "1969-12-31T23:59:59.999Z",
  "2000-02-29T12:00:00.000Z", // leap year (divisible by 400)
  "1900-02-29T12:00:00.000Z", // not a leap year (divisible by 100)
  "2100-02-29T00:00:00.000Z",
  "2024-02-29T00:00:00.000Z",
  "2023-02-29T00:00:00.000Z",
  "2023-02-28T23:59:59.999Z",
  "2026-04-31T00:00:00.000Z",
  "2026-04-30T00:00:00.000Z",
  "2026-12-31T23:59:60.000Z", // a leap second rolls into the next year
  "2026-06-30T23:59:60.500Z",
  "2026-06-30T23:59:61.000Z",
  "2026-06-30T24:00:00.000Z",
  "2026-06-30T23:60:00.000Z",
  "2026-00-10T00:00:00.000Z",
  "2026-13-10T00:00:00.000Z",
  "2026-01-00T00:00:00.000Z",
  "2026-01-32T00:00:00.000Z",
  "0000-01-01T00:00:00.000Z", // years below 100 go through Date.UTC's 1900 mapping (general parser)
  "0000-02-29T00:00:00.000Z",
  "0050-06-15T12:00:00.000Z",
  "0099-12-31T23:59:59.999Z",
  "0100-01-01T00:00:00.000Z",
  "0100-02-29T00:00:00.000Z",
  "0400-02-29T00:00:00.000Z",
  "9999-12-31T23:59:59.999Z",
  "2026-11-29t10:00:05.120Z", // lower-case forms: general parser
  "2026-11-29T10:00:05.120z",
  "2026-11-29T10:00:05.12Z", // other fraction lengths
  "2026-11-29T10:00:05.1Z",
  "2026-11-29T10:00:05Z",
  "2026-11-29T10:00:05.1200Z",
  "2026-11-29T10:00:05.1234567Z",
  "2026-11-29T10:00:05.120+05:30",
  "2026-11-29T10:00:05.120-00:00",
  "2026-11-29T10:00:05.120+24:00",
  "2026-11-29T10:00:05.12aZ", // not digits
  "2026-11-29T10:00:0a.120Z",
  "2026-1a-29T10:00:05.120Z",
  "202a-11-29T10:00:05.120Z",
  "2026-11-29T10:00:05/120Z",
  "2026-11-29 10:00:05.120Z",
  "2026/11/29T10:00:05.120Z",
  "2026-11-29T10-00:05.120Z",
  "+2026-11-29T10:00:05.12Z",
  "2026-11-29T10:00:05.120ZZ",
  "２０２６-11-29T10:00:05.120Z", // full-width digits are not digits
  "",
];

describe("parseInstant's fast path for YYYY-MM-DDTHH:MM:SS.sssZ", () => {
  it.each(TRICKY)("%j parses as the regex parser does", (text) => {
    expect(parseInstant(text)).toEqual(referenceParseInstant(text));
    const fast = parseCommonInstantMs(text);
    if (!Number.isNaN(fast)) expect({ ms: fast, sub: "" }).toEqual(referenceParseInstant(text));
  });

  it("takes the common form (any year) and leaves leap seconds and other forms to the general parser", () => {
    expect(parseCommonInstantMs("2026-11-29T10:00:05.120Z")).toBe(Date.UTC(2026, 10, 29, 10, 0, 5, 120));
    expect(parseCommonInstantMs("0050-06-15T12:00:00.000Z")).toBe(new Date("0050-06-15T12:00:00.000Z").getTime());
    expect(parseCommonInstantMs("2026-12-31T23:59:60.000Z")).toBeNaN();
    expect(parseCommonInstantMs("2026-11-29t10:00:05.120Z")).toBeNaN();
    expect(parseCommonInstantMs("2026-11-29T10:00:05.12Z")).toBeNaN();
  });

  it("agrees with the regex parser on many dates across the calendar, including invalid days", () => {
    let seed = 12345;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pad = (n: number, width: number) => String(n).padStart(width, "0");
    for (let k = 0; k < 20_000; k++) {
      const text =
        `${pad(next(10_000), 4)}-${pad(next(14), 2)}-${pad(next(33), 2)}T` +
        `${pad(next(25), 2)}:${pad(next(61), 2)}:${pad(next(62), 2)}.${pad(next(1000), 3)}Z`;
      expect(parseInstant(text), text).toEqual(referenceParseInstant(text));
    }
  });
});

describe("instants the API accepts (storable and in run order)", () => {
  it("keeps years 0001–0099 as themselves, never 1900–1999", () => {
    expect(parseInstant("0050-06-15T12:00:00Z")!.ms).toBe(new Date("0050-06-15T12:00:00.000Z").getTime());
    expect(new Date(parseInstant("0001-01-01T00:00:00.000Z")!.ms).toISOString()).toBe("0001-01-01T00:00:00.000Z");
    expect(new Date(parseInstant("0099-12-31T23:59:59.999+00:00")!.ms).toISOString()).toBe("0099-12-31T23:59:59.999Z");
  });

  it("places a leap second at its minute's last millisecond, after every real instant there, in its own order", () => {
    const leap = parseInstant("2016-12-31T23:59:60.5Z")!;
    expect(new Date(leap.ms).toISOString()).toBe("2016-12-31T23:59:59.999Z");
    const order = [
      "2016-12-31T23:59:59.998Z",
      "2016-12-31T23:59:59.999Z",
      "2016-12-31T23:59:59.9999999Z",
      "2016-12-31T23:59:60Z",
      "2016-12-31T23:59:60.25Z",
      "2016-12-31T23:59:60.5Z",
      "2016-12-31T23:59:60.999999Z",
      "2017-01-01T00:00:00Z",
      "2017-01-01T00:00:00.001Z",
    ].map((ts) => parseInstant(ts)!);
    for (let i = 1; i < order.length; i++) {
      const [a, b] = [order[i - 1], order[i]];
      expect(a.ms < b.ms || (a.ms === b.ms && a.sub < b.sub), `${i}`).toBe(true);
    }
    // with an offset the leap second belongs to the local minute it was written in
    expect(new Date(parseInstant("2017-01-01T05:29:60+05:30")!.ms).toISOString()).toBe("2016-12-31T23:59:59.999Z");
  });

  it("accepts 0001-01-01T00:00:00Z … 9999-12-31T23:59:59.999Z as instants, nothing beyond", () => {
    const ok = (ts: string) => ZTimestamp.safeParse(ts).success;
    expect(ok("0001-01-01T00:00:00Z")).toBe(true);
    expect(ok("9999-12-31T23:59:59.999Z")).toBe(true);
    expect(ok("9999-12-31T23:59:60Z")).toBe(true); // the leap second stays in its minute
    expect(ok("0000-12-31T23:59:59.999Z")).toBe(false);
    expect(ok("0001-01-01T00:30:00+01:00")).toBe(false); // 0000-12-31T23:30Z
    expect(ok("9999-12-31T23:59:59-00:01")).toBe(false); // 10000-01-01T00:00:59Z
    expect(ZTimestamp.safeParse("0000-06-01T00:00:00Z").error!.issues[0].message).toMatch(
      /out of range.*0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z/,
    );
  });
});
