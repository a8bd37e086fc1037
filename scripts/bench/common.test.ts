import { describe, expect, it } from "vitest";
import { markdownTable, percentile, targetLine } from "./common";

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

describe("targetLine", () => {
  it.each([
    [{ atMost: 200 }, 200, "target: x = 200 ms (≤ 200 ms) PASS"],
    [{ atMost: 200 }, 200.04, "target: x = 200 ms (≤ 200 ms) MISS"],
    [{ atLeast: 10_000 }, 9_999.5, "target: x = 9,999.5 ms (≥ 10,000 ms) MISS"],
    [{ atLeast: 10_000 }, 12_345, "target: x = 12,345 ms (≥ 10,000 ms) PASS"],
  ])("%j with %d", (target, value, line) => {
    expect(targetLine("x", value, "ms", target)).toBe(line);
  });
});
