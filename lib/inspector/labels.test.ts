import { describe, expect, it } from "vitest";
import { pairLabel, shortTime, stageLabel } from "./labels";

describe("labels", () => {
  it.each([
    ["requests", null, "requests"],
    ["edits", "b1", "edits · b1"],
    ["context", undefined, "context"],
  ] as const)("pairLabel(%s, %s) = %s", (key, subject, text) => expect(pairLabel(key, subject)).toBe(text));

  it.each([
    ["requests", 2, "stage 2"],
    ["review", 3, "checkpoint 3"],
  ] as const)("stageLabel(%s, %s) = %s", (key, stage, text) => expect(stageLabel(key, stage)).toBe(text));
});

describe("shortTime", () => {
  it.each([
    ["2026-11-29T22:44:03.998Z", "22:44:03.998"],
    ["2026-11-29T22:44:03+02:00", "22:44:03"],
    ["2026-11-29T22:44:03.1234567Z", "22:44:03.123"],
    ["garbage", "garbage"],
  ])("shortTime(%s) = %s", (ts, text) => expect(shortTime(ts)).toBe(text));
});
