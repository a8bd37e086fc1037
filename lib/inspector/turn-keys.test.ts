import { describe, expect, it } from "vitest";
import type { KeyPress } from "@/lib/keys/key-press";
import { turnForKey } from "./turn-keys";

describe("turnForKey", () => {
  it.each<[string, KeyPress, number | null]>([
    ["← goes to the previous turn", { key: "ArrowLeft", targetTag: "BODY" }, 4],
    ["→ goes to the next turn", { key: "ArrowRight", targetTag: "BUTTON" }, 9],
    ["other keys are ignored", { key: "ArrowUp" }, null],
    ["typing in an input is ignored", { key: "ArrowLeft", targetTag: "input" }, null],
    ["typing in a textarea is ignored", { key: "ArrowRight", targetTag: "TEXTAREA" }, null],
    ["a select keeps its arrows", { key: "ArrowRight", targetTag: "SELECT" }, null],
    ["contenteditable is ignored", { key: "ArrowRight", targetTag: "DIV", targetEditable: true }, null],
    ["a slider keeps its arrows", { key: "ArrowRight", targetTag: "DIV", targetRole: "slider" }, null],
    ["modifiers are left to the browser", { key: "ArrowLeft", altKey: true }, null],
    ["ctrl", { key: "ArrowRight", ctrlKey: true }, null],
    ["meta", { key: "ArrowRight", metaKey: true }, null],
    ["shift", { key: "ArrowRight", shiftKey: true }, null],
    ["already handled", { key: "ArrowRight", defaultPrevented: true }, null],
    ["a dialog over the page keeps its keys", { key: "ArrowRight", targetTag: "BUTTON", targetInDialog: true }, null],
  ])("%s", (_, press, turn) => expect(turnForKey(press, 4, 9)).toBe(turn));

  it.each([
    ["ArrowLeft", null],
    ["ArrowRight", null],
  ])("%s with no neighbour gives null", (key, turn) => expect(turnForKey({ key }, null, null)).toBe(turn));
});
