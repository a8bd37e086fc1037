import { describe, expect, it } from "vitest";
import { jsonTextOf, keepJsonText } from "./json-text";

describe("kept JSON text", () => {
  it("encodes a kept object once and sends that text; other values are encoded as JSON.stringify does", () => {
    const answer = { turns: [1, 2], label: "a" };
    const text = keepJsonText(answer);
    expect(text).toBe(JSON.stringify(answer));
    expect(keepJsonText(answer)).toBe(text);
    // The kept text is what is sent, the same string each time.
    expect(jsonTextOf(answer)).toBe(text);
    expect(jsonTextOf({ turns: [1, 2], label: "a" })).toBe(text);
    for (const value of [null, 3, "x", [1, { a: true }], { b: undefined, c: 1 }]) expect(jsonTextOf(value)).toBe(JSON.stringify(value));
  });
});
