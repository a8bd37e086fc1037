import { describe, expect, it } from "vitest";
import {
  formatBytes,
  formatCount,
  formatLatency,
  formatTokens,
  formatEdits,
  formatInUnit,
  formatMinutes,
  formatMs,
  formatNumber,
  formatPercent,
  formatRequests,
  formatTurn,
  formatTurnCount,
  formatTurnRange,
  msToMinutes,
  UNIT_FORMATTERS,
} from ".";
import { METER_UNITS } from "@/lib/contracts";

describe("formatNumber", () => {
  it.each([
    [0, 0, "0"],
    [1234567, 0, "1,234,567"],
    [-1234, 0, "-1,234"],
    [-0.01, 0, "0"],
    [48.60000000000001, 1, "48.6"],
    [40.55, 1, "40.6"],
    [Infinity, 0, "∞"],
    [NaN, 0, "–"],
  ])("formatNumber(%s, %s) = %s", (n, digits, text) => expect(formatNumber(n, digits)).toBe(text));
});

describe("formatCount", () => {
  it.each([
    [0, "finding", undefined, "0 findings"],
    [1, "finding", undefined, "1 finding"],
    [2, "block edited", "blocks edited", "2 blocks edited"],
    [1, "block edited", "blocks edited", "1 block edited"],
    [5, "mismatch", "mismatches", "5 mismatches"],
    [1204, "turn", undefined, "1,204 turns"],
  ])("formatCount(%s, %s, %s) = %s", (n, noun, plural, text) => expect(formatCount(n, noun, plural)).toBe(text));
});

describe("formatRequests (unit: requests)", () => {
  it.each([
    [41, "41 requests", "41"],
    [1, "1 request", "1"],
    [0, "0 requests", "0"],
    [1828.5, "1,828.5 requests", "1,828.5"],
    [48.6000000001, "48.6 requests", "48.6"],
    [25594, "25,594 requests", "25,594"],
  ])("%s → %s / %s", (n, long, compact) => {
    expect(formatRequests(n)).toBe(long);
    expect(formatRequests(n, { compact: true })).toBe(compact);
  });
});

describe("formatMinutes / formatMs (unit: minutes)", () => {
  it.each([
    [1_350_000, "22.5 min", "22.5"],
    [1_800_000, "30 min", "30"],
    [0, "0 min", "0"],
    [59_999, "1 min", "1"],
    [30_000, "0.5 min", "0.5"],
    [425_820_000, "7,097 min", "7,097"],
  ])("formatMs(%s) = %s / %s", (ms, long, compact) => {
    expect(formatMs(ms)).toBe(long);
    expect(formatMs(ms, { compact: true })).toBe(compact);
    expect(formatMinutes(ms / 60_000)).toBe(long);
  });

  it.each([
    [1_350_000, 22.5],
    [38_673_492, 644.558],
    [1, 0],
    [30, 0.001],
  ])("msToMinutes(%s) = %s (3 decimals)", (ms, minutes) => expect(msToMinutes(ms)).toBe(minutes));
});

describe("formatBytes (unit: bytes)", () => {
  it.each([
    [181_220, "181,220 B", "181 kB"],
    [200_000, "200,000 B", "200 kB"],
    [18_140, "18,140 B", "18.1 kB"],
    [1_234, "1,234 B", "1.23 kB"],
    [999, "999 B", "999 B"],
    [0, "0 B", "0 B"],
    [999_999, "999,999 B", "1 MB"],
    [999_500, "999,500 B", "1 MB"],
    [999_499, "999,499 B", "999 kB"],
    [1_200_000, "1,200,000 B", "1.2 MB"],
    [-15, "-15 B", "-15 B"],
    [-27_932, "-27,932 B", "-27.9 kB"],
  ])("%s → %s / %s", (n, long, compact) => {
    expect(formatBytes(n)).toBe(long);
    expect(formatBytes(n, { compact: true })).toBe(compact);
  });
});

describe("formatEdits (unit: edits)", () => {
  it.each([
    [3, "3 edits", "3"],
    [1, "1 edit", "1"],
    [0, "0 edits", "0"],
    [2.5, "2.5 edits", "2.5"],
  ])("%s → %s / %s", (n, long, compact) => {
    expect(formatEdits(n)).toBe(long);
    expect(formatEdits(n, { compact: true })).toBe(compact);
  });
});

describe("formatPercent (a unitless ratio, floored like the copy's {percent})", () => {
  it.each([
    [0.7778, undefined, "77%"],
    [0.7778, 1, "77.7%"],
    [0.29, undefined, "29%"],
    [0.9962, undefined, "99%"],
    [1, undefined, "100%"],
    [2.75, undefined, "275%"],
    [0, undefined, "0%"],
    [null, undefined, "∞%"],
  ])("formatPercent(%s, digits %s) = %s", (ratio, digits, text) => expect(formatPercent(ratio, { digits })).toBe(text));
});

describe("formatTurn", () => {
  it.each([
    [812, "turn 812", "812"],
    [0, "turn 0", "0"],
    [19999, "turn 19,999", "19,999"],
  ])("%s → %s / %s", (turn, long, compact) => {
    expect(formatTurn(turn)).toBe(long);
    expect(formatTurn(turn, { compact: true })).toBe(compact);
  });
  it("ranges and counts", () => {
    expect(formatTurnRange(10, 20)).toBe("turns 10–20");
    expect(formatTurnRange(7, 7)).toBe("turn 7");
    expect(formatTurnCount(1204)).toBe("1,204 turns");
    expect(formatTurnCount(1)).toBe("1 turn");
  });
});

describe("one formatter per meter unit", () => {
  it("covers every unit of the timeline, each naming its own unit only", () => {
    expect(Object.keys(UNIT_FORMATTERS).sort()).toEqual([...METER_UNITS].sort());
    const suffix = { requests: "requests", min: "min", bytes: "B", edits: "edits" } as const;
    for (const unit of METER_UNITS) {
      const text = formatInUnit(unit, 42);
      expect(text).toBe(`42 ${suffix[unit]}`);
      for (const other of METER_UNITS) if (other !== unit) expect(text.endsWith(` ${suffix[other]}`)).toBe(false);
    }
  });
});

describe("formatTokens and formatLatency (OpenTelemetry model requests)", () => {
  it.each([
    [1234, "1,234 tokens"],
    [1, "1 token"],
    [null, "—"],
  ])("formatTokens(%s) = %s", (n, text) => expect(formatTokens(n)).toBe(text));
  it.each([
    [320, "320 ms"],
    [1500, "1.5 s"],
    [61_000, "61 s"],
    [null, "—"],
  ])("formatLatency(%s) = %s", (ms, text) => expect(formatLatency(ms)).toBe(text));
});
