import { describe, expect, it } from "vitest";
import { countLabel, parseCount, parseSizes } from "./scale-options";

describe("parseCount", () => {
  it.each([
    ["20000", 20_000],
    ["20k", 20_000],
    ["20K", 20_000],
    ["1M", 1_000_000],
    ["1.5m", 1_500_000],
    [" 100k ", 100_000],
  ])("%j is %d", (text, count) => {
    expect(parseCount(text)).toBe(count);
  });

  it.each(["", "0", "k", "1G", "-5", "1e6", "1,000", "0.0001k"])("rejects %j", (text) => {
    expect(() => parseCount(text)).toThrow(/not a count of events/);
  });
});

describe("parseSizes", () => {
  it("reads small and large", () => {
    expect(parseSizes("100k,1M")).toEqual([100_000, 1_000_000]);
  });

  it.each([
    ["100k", /two counts/],
    ["1k,2k,3k", /two counts/],
    ["1M,100k", /smaller/],
    ["5k,5000", /smaller/],
    ["5k,lots", /not a count/],
  ])("rejects %j", (text, message) => {
    expect(() => parseSizes(text)).toThrow(message);
  });
});

describe("countLabel", () => {
  it.each([
    [999, "999"],
    [1_000, "1k"],
    [1_500, "1.5k"],
    [20_000, "20k"],
    [1_000_000, "1M"],
    [1_250_000, "1.25M"],
  ])("%d is %j", (count, label) => {
    expect(countLabel(count)).toBe(label);
  });

  it("labels what parseCount reads back", () => {
    for (const count of [7, 20_000, 200_000, 1_000_000]) expect(parseCount(countLabel(count))).toBe(count);
  });
});
