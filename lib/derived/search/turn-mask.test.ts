import { describe, expect, it } from "vitest";
import { emptyMask, maskCount, maskText, maskTurns, parseMask, setTurn } from "./turn-mask";

describe("turn masks", () => {
  it.each([
    { name: "no turn", bucket: 0, turns: [], text: "0".repeat(64) },
    { name: "the bucket's first turn is the leftmost digit's 8", bucket: 0, turns: [0], text: "8" + "0".repeat(63) },
    { name: "turns 1, 2, 3 are that digit's 4, 2, 1", bucket: 0, turns: [1, 2, 3], text: "7" + "0".repeat(63) },
    { name: "the bucket's last turn is the last digit's 1", bucket: 0, turns: [255], text: "0".repeat(63) + "1" },
    { name: "bucket 2's turn 517 is offset 5: digit 1's 4", bucket: 2, turns: [517], text: "04" + "0".repeat(62) },
    {
      name: "a full digit and a lone turn",
      bucket: 1,
      turns: [256 + 8, 256 + 9, 256 + 10, 256 + 11, 256 + 40],
      text: "00f0000000" + "8" + "0".repeat(53),
    },
  ])("$name", ({ bucket, turns, text }) => {
    const bits = emptyMask();
    for (const turn of turns) setTurn(bits, turn);
    expect(maskText(bits)).toBe(text);
    expect(maskTurns(bucket, parseMask(text))).toEqual(turns);
    expect(maskCount(parseMask(text))).toBe(turns.length);
  });

  it("setting a turn twice is setting it once", () => {
    const bits = emptyMask();
    setTurn(bits, 7);
    setTurn(bits, 7);
    expect(maskCount(bits)).toBe(1);
  });

  it.each(["", "0".repeat(63), "0".repeat(65), "g" + "0".repeat(63), "F" + "0".repeat(63)])("refuses a stored mask %j", (text) => {
    expect(() => parseMask(text)).toThrow(/not a turn mask/);
  });
});
