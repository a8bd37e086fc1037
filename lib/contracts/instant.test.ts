import { describe, expect, it } from "vitest";
import { parseCommonInstantMs, parseInstant } from "./primitives";

/** parseInstant as it was before the fast path: the regex parser alone (the reference). */
function referenceParseInstant(text: string): { ms: number; sub: string } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac = "", zone] = m;
  const year = +y, month = +mo, day = +d, hour = +h, minute = +mi, second = +s;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return null;
  if (hour > 23 || minute > 59 || second > 60) return null;
  let offsetMin = 0;
  if (zone !== "Z" && zone !== "z") {
    const oh = +zone.slice(1, 3), om = +zone.slice(4, 6);
    if (oh > 23 || om > 59) return null;
    offsetMin = (zone[0] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const digits = frac.slice(1);
  const ms = Date.UTC(year, month - 1, day, hour, minute, second) - offsetMin * 60_000 + (digits.length ? +digits.slice(0, 3).padEnd(3, "0") : 0);
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

  it("takes the common form and leaves years below 100 and other forms to the general parser", () => {
    expect(parseCommonInstantMs("2026-11-29T10:00:05.120Z")).toBe(Date.UTC(2026, 10, 29, 10, 0, 5, 120));
    expect(parseCommonInstantMs("0050-06-15T12:00:00.000Z")).toBeNaN();
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
