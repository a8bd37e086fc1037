import { describe, expect, it } from "vitest";
import { markdownTable, percentile } from "./common";

describe("percentile (nearest rank)", () => {
  const twenty = Array.from({ length: 20 }, (_, i) => 20 - i); // 20, 19, ..., 1: order does not matter

  it.each([
    [50, 10],
    [95, 19],
    [100, 20],
    [1, 1],
  ])("p%d of 1..20 is %d", (p, value) => {
    expect(percentile(twenty, p)).toBe(value);
  });

  it("is the value itself for one sample", () => {
    expect(percentile([42], 95)).toBe(42);
  });

  it.each([
    [[], 50, /no values/],
    [[1], 0, /\(0, 100\]/],
    [[1], 101, /\(0, 100\]/],
  ])("rejects %j at p%d", (values, p, message) => {
    expect(() => percentile(values, p)).toThrow(message);
  });
});

describe("markdownTable", () => {
  it("right-aligns the number columns and escapes pipes", () => {
    expect(
      markdownTable(
        ["read", "p95 ms", "max ms"],
        [
          ["GET /a|b", "12.5", "—"],
          ["GET /c", "1,200.0", "3"],
        ],
      ),
    ).toBe(["| read | p95 ms | max ms |", "|---|---:|---:|", "| GET /a\\|b | 12.5 | — |", "| GET /c | 1,200.0 | 3 |"].join("\n"));
  });
});
