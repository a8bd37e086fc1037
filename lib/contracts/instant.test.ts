import { describe, expect, it } from "vitest";
import { parseCommonInstantMs, parseInstant, ZTimestamp } from "./primitives";

/**
 * The oracle, written from RFC 3339 §5.6–5.7 and Appendix C and from the telemetry contract's
 * instants and leap seconds (docs/contract/telemetry.md#storage-limits), sharing nothing with
 * primitives.ts: the grammar is read character by character (no regex), February's length is
 * Appendix C's test written as the RFC writes it, and days are counted from a table of the days
 * before each year built by walking year by year from 1970 (no closed-form day count, no Date).
 * The table is itself pinned by instants whose epoch values are well known (below) and by Date.UTC.
 */
const RFC_DAYS_IN_MONTH = [31, 0, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]; // RFC 3339 §5.7's table; February below

/** RFC 3339 Appendix C: the number of days in February. */
function februaryDays(year: number): number {
  if (year % 4 !== 0) return 28;
  if (year % 100 !== 0) return 29;
  if (year % 400 !== 0) return 28;
  return 29;
}

const monthDays = (year: number, month: number) => (month === 2 ? februaryDays(year) : RFC_DAYS_IN_MONTH[month - 1]);
const yearDays = (year: number) => 337 + februaryDays(year);

/** DAYS_BEFORE_YEAR[y]: days from 1970-01-01 to y-01-01, for y = 0 … 10000, walked one year at a time. */
const DAYS_BEFORE_YEAR: number[] = (() => {
  const table: number[] = [];
  table[1970] = 0;
  for (let y = 1970; y < 10_000; y++) table[y + 1] = table[y] + yearDays(y);
  for (let y = 1970; y > 0; y--) table[y - 1] = table[y] - yearDays(y - 1);
  return table;
})();

function daysFromEpoch(year: number, month: number, day: number): number {
  let days = DAYS_BEFORE_YEAR[year];
  for (let m = 1; m < month; m++) days += monthDays(year, m);
  return days + day - 1;
}

/** An RFC 3339 date-time read by hand: its fields, its UTC minute (minutes since the epoch) and its fraction digits. */
interface OracleInstant {
  year: number;
  minute: number;
  second: number;
  fraction: string;
}

function oracleRead(text: string): OracleInstant | null {
  let at = 0;
  const isDigit = (c: string | undefined) => c !== undefined && c.length === 1 && c >= "0" && c <= "9";
  const digits = (count: number): number | null => {
    let value = 0;
    for (let k = 0; k < count; k++) {
      const c = text[at + k];
      if (!isDigit(c)) return null;
      value = value * 10 + (c.charCodeAt(0) - 48);
    }
    at += count;
    return value;
  };
  const literal = (...allowed: string[]) => {
    if (!allowed.includes(text[at])) return false;
    at++;
    return true;
  };
  // date-time = full-date "T" full-time; "T" and "Z" may be lower case (RFC 3339 §5.6, note on case).
  const year = digits(4);
  if (year === null || !literal("-")) return null;
  const month = digits(2);
  if (month === null || !literal("-")) return null;
  const mday = digits(2);
  if (mday === null || !literal("T", "t")) return null;
  const hour = digits(2);
  if (hour === null || !literal(":")) return null;
  const minute = digits(2);
  if (minute === null || !literal(":")) return null;
  const second = digits(2);
  if (second === null) return null;
  let fraction = "";
  if (literal(".")) {
    while (isDigit(text[at])) fraction += text[at++];
    if (fraction === "") return null; // time-secfrac = "." 1*DIGIT
  }
  let offsetMinutes = 0;
  if (!literal("Z", "z")) {
    const sign = text[at];
    if (sign !== "+" && sign !== "-") return null;
    at++;
    const offsetHour = digits(2);
    if (offsetHour === null || !literal(":")) return null;
    const offsetMinute = digits(2);
    if (offsetMinute === null || offsetHour > 23 || offsetMinute > 59) return null;
    offsetMinutes = (sign === "+" ? 1 : -1) * (offsetHour * 60 + offsetMinute);
  }
  if (at !== text.length) return null;
  if (month < 1 || month > 12 || mday < 1 || mday > monthDays(year, month)) return null;
  // The contract accepts a leap second (:60) in any minute and places it in that minute.
  if (hour > 23 || minute > 59 || second > 60) return null;
  const utcMinute = (daysFromEpoch(year, month, mday) * 24 + hour) * 60 + minute - offsetMinutes;
  return { year, minute: utcMinute, second, fraction };
}

/**
 * The contract's instant: milliseconds since the epoch, and the fraction digits beyond the
 * millisecond (trailing zeros dropped); a leap second is its minute's last millisecond, with `sub`
 * ":" + its fraction digits.
 */
function oracleInstant(text: string): { ms: number; sub: string } | null {
  const read = oracleRead(text);
  if (!read) return null;
  const trim = (digits: string) => digits.replace(/0+$/, "");
  if (read.second === 60) return { ms: read.minute * 60_000 + 59_999, sub: `:${trim(read.fraction)}` };
  const milli = Number(`${read.fraction}000`.slice(0, 3));
  return { ms: read.minute * 60_000 + read.second * 1000 + milli, sub: trim(read.fraction.slice(3)) };
}

/** The order of two readable date-times by the contract: UTC minute, then second (60 last), then fraction as a decimal. */
function oracleCompare(a: OracleInstant, b: OracleInstant): number {
  if (a.minute !== b.minute) return Math.sign(a.minute - b.minute);
  if (a.second !== b.second) return Math.sign(a.second - b.second);
  const width = Math.max(a.fraction.length, b.fraction.length);
  const [fa, fb] = [a.fraction.padEnd(width, "0"), b.fraction.padEnd(width, "0")];
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}

/** The order parseInstant's results stand for (telemetry contract: by instant, then by the digits beyond it). */
function parsedCompare(a: { ms: number; sub: string }, b: { ms: number; sub: string }): number {
  if (a.ms !== b.ms) return Math.sign(a.ms - b.ms);
  return a.sub === b.sub ? 0 : a.sub < b.sub ? -1 : 1;
}

/** Epoch values known independently of any code here (seconds since 1970-01-01T00:00:00Z). */
const KNOWN_EPOCH_SECONDS: [string, number][] = [
  ["1970-01-01T00:00:00Z", 0],
  ["2001-09-09T01:46:40Z", 1_000_000_000], // the Unix billennium
  ["2038-01-19T03:14:07Z", 2 ** 31 - 1], // the largest signed 32-bit time_t
  ["1900-01-01T00:00:00Z", -2_208_988_800], // the NTP epoch
  ["1601-01-01T00:00:00Z", -11_644_473_600], // the Windows FILETIME epoch
  ["2000-03-01T00:00:00Z", 951_868_800], // the day after 2000-02-29
  ["0001-01-01T00:00:00Z", -62_135_596_800], // .NET's DateTime.MinValue
  ["0000-01-01T00:00:00Z", -62_167_219_200], // year 0 (proleptic, a leap year): 366 days earlier
  ["9999-12-31T23:59:59Z", 253_402_300_799], // .NET's DateTime.MaxValue, to the second
];

/** A small deterministic generator (a linear congruential one). */
function generator(seed: number) {
  return (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** Date-times across the whole grammar: any year, invalid days and times, leap seconds, fractions of any length, offsets, case. */
function randomDateTime(next: (n: number) => number): string {
  const fraction = ["", ".", `.${pad(next(1000), 3)}`, `.${pad(next(10), 1)}`, `.${pad(next(1_000_000), 6)}`, `.${pad(next(10_000), 4)}0`][
    next(6)
  ];
  const zone = ["Z", "z", `+${pad(next(25), 2)}:${pad(next(61), 2)}`, `-${pad(next(25), 2)}:${pad(next(61), 2)}`][next(4)];
  const t = next(10) === 0 ? "t" : "T";
  const year = next(3) === 0 ? [0, 1, 99, 100, 1969, 1970, 9999][next(7)] : next(10_000);
  return (
    `${pad(year, 4)}-${pad(next(14), 2)}-${pad(next(33), 2)}${t}` +
    `${pad(next(25), 2)}:${pad(next(61), 2)}:${pad(next(5) === 0 ? 60 : next(62), 2)}${fraction}${zone}`
  );
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

describe("the oracle itself", () => {
  it.each(KNOWN_EPOCH_SECONDS)("reads %s as %d s since the epoch", (text, seconds) => {
    expect(oracleInstant(text)).toEqual({ ms: seconds * 1000, sub: "" });
  });

  it("counts days as Date.UTC does for years 100–9999 (Date.UTC maps 0–99 to 1900–1999)", () => {
    const next = generator(777);
    for (let k = 0; k < 5_000; k++) {
      const [year, month] = [100 + next(9_900), 1 + next(12)];
      const [day, hour, minute, second, milli] = [1 + next(monthDays(year, month)), next(24), next(60), next(60), next(1000)];
      const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}.${pad(milli, 3)}Z`;
      expect(oracleInstant(text)!.ms, text).toBe(Date.UTC(year, month - 1, day, hour, minute, second, milli));
    }
  });
});

describe("parseInstant against the oracle over the whole grammar", () => {
  it("agrees on random date-times with offsets, leap seconds, lower case and fractions of any length", () => {
    const next = generator(4242);
    for (let k = 0; k < 20_000; k++) {
      const text = randomDateTime(next);
      expect(parseInstant(text), text).toEqual(oracleInstant(text));
    }
  });

  it("orders instants as the oracle does: by UTC minute, then second (a leap second last), then fraction", () => {
    const next = generator(99);
    // Near one another, so that equal milliseconds, leap seconds and offsets meet.
    const near = () =>
      `2016-12-31T${pad(22 + next(2), 2)}:${pad(58 + next(2), 2)}:${pad(58 + next(3), 2)}` +
      ["", ".9", ".999", ".9995", ".99951", `.${pad(next(1000), 3)}${pad(next(100), 2)}`][next(6)] +
      ["Z", "+00:00", "+01:00", "-01:00", "+00:01"][next(5)];
    for (let k = 0; k < 20_000; k++) {
      const [a, b] = k % 2 ? [near(), near()] : [randomDateTime(next), randomDateTime(next)];
      const [pa, pb] = [parseInstant(a), parseInstant(b)];
      if (pa === null || pb === null) continue;
      expect(parsedCompare(pa, pb), `${a} vs ${b}`).toBe(oracleCompare(oracleRead(a)!, oracleRead(b)!));
    }
  });

  it("accepts as ZTimestamp exactly the date-times the oracle places in 0001-01-01T00:00:00Z … 9999-12-31T23:59:59.999Z", () => {
    const [min, max] = [oracleInstant("0001-01-01T00:00:00Z")!.ms, oracleInstant("9999-12-31T23:59:59.999Z")!.ms];
    const next = generator(2024);
    const edges = [0, 1, 9999].flatMap((year) =>
      ["Z", "+00:01", "-00:01", "+23:59", "-23:59"].flatMap((zone) => [
        `${pad(year, 4)}-01-01T00:00:00${zone}`,
        `${pad(year, 4)}-12-31T23:59:59.999${zone}`,
        `${pad(year, 4)}-12-31T23:59:60.5${zone}`,
      ]),
    );
    for (const text of [...TRICKY, ...edges, ...Array.from({ length: 5_000 }, () => randomDateTime(next))]) {
      const instant = oracleInstant(text);
      const expected = instant !== null && instant.ms >= min && instant.ms <= max;
      expect(ZTimestamp.safeParse(text).success, text).toBe(expected);
    }
  });
});

describe("parseInstant's fast path for YYYY-MM-DDTHH:MM:SS.sssZ", () => {
  it.each(TRICKY)("%j parses as the oracle reads it", (text) => {
    expect(parseInstant(text)).toEqual(oracleInstant(text));
    const fast = parseCommonInstantMs(text);
    if (!Number.isNaN(fast)) expect({ ms: fast, sub: "" }).toEqual(oracleInstant(text));
  });

  it("takes the common form (any year) and leaves leap seconds and other forms to the general parser", () => {
    expect(parseCommonInstantMs("2026-11-29T10:00:05.120Z")).toBe(Date.UTC(2026, 10, 29, 10, 0, 5, 120));
    expect(parseCommonInstantMs("0050-06-15T12:00:00.000Z")).toBe(new Date("0050-06-15T12:00:00.000Z").getTime());
    expect(parseCommonInstantMs("2026-12-31T23:59:60.000Z")).toBeNaN();
    expect(parseCommonInstantMs("2026-11-29t10:00:05.120Z")).toBeNaN();
    expect(parseCommonInstantMs("2026-11-29T10:00:05.12Z")).toBeNaN();
  });

  it("agrees with the oracle on many dates across the calendar, including invalid days", () => {
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
      expect(parseInstant(text), text).toEqual(oracleInstant(text));
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
