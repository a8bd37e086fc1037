import { describe, expect, it } from "vitest";
import { triageForKey } from "./triage-keys";

describe("triageForKey", () => {
  it.each([
    { press: { key: "]" }, want: { kind: "drop", direction: "next" } },
    { press: { key: "[" }, want: { kind: "drop", direction: "previous" } },
    { press: { key: "n" }, want: { kind: "finding", direction: "next" } },
    { press: { key: "N", shiftKey: true }, want: { kind: "finding", direction: "next" } },
    { press: { key: "p" }, want: { kind: "finding", direction: "previous" } },
    { press: { key: "}", shiftKey: true }, want: { kind: "delivery", direction: "next" } },
    { press: { key: "{", shiftKey: true }, want: { kind: "delivery", direction: "previous" } },
    { press: { key: "x" }, want: null },
    { press: { key: "ArrowRight" }, want: null },
    { press: { key: "n", ctrlKey: true }, want: null },
    { press: { key: "]", metaKey: true }, want: null },
    { press: { key: "p", altKey: true }, want: null },
    { press: { key: "n", defaultPrevented: true }, want: null },
    { press: { key: "n", targetTag: "input" }, want: null },
    { press: { key: "]", targetTag: "TEXTAREA" }, want: null },
    { press: { key: "n", targetEditable: true }, want: null },
    { press: { key: "p", targetRole: "combobox" }, want: null },
    { press: { key: "n", targetTag: "BUTTON" }, want: { kind: "finding", direction: "next" } },
  ])("$press.key $press → $want", ({ press, want }) => {
    expect(triageForKey(press)).toEqual(want);
  });
});
