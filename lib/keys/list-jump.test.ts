import { describe, expect, it } from "vitest";
import { jumpForKey, jumpIndex, jumpMessage } from "./list-jump";

describe("list problem keys", () => {
  it.each([
    [{ key: "]" }, "next"],
    [{ key: "[" }, "previous"],
    [{ key: "]", shiftKey: true }, "next"],
    [{ key: "]", ctrlKey: true }, null],
    [{ key: "[", metaKey: true }, null],
    [{ key: "]", altKey: true }, null],
    [{ key: "]", defaultPrevented: true }, null],
    [{ key: "]", targetTag: "input" }, null],
    [{ key: "]", targetTag: "TEXTAREA" }, null],
    [{ key: "[", targetTag: "SELECT" }, null],
    [{ key: "]", targetEditable: true }, null],
    [{ key: "]", targetRole: "combobox" }, null],
    [{ key: "]", targetTag: "A" }, "next"],
    [{ key: "}" }, null],
    [{ key: "n" }, null],
  ] as const)("%o → %s", (press, expected) => {
    expect(jumpForKey(press)).toBe(expected);
  });

  it.each([
    // current, count, direction, expected
    [-1, 3, "next", 0],
    [-1, 3, "previous", 2],
    [0, 3, "next", 1],
    [2, 3, "next", null],
    [0, 3, "previous", null],
    [1, 3, "previous", 0],
    [-1, 0, "next", null],
    [5, 3, "next", 0],
  ] as const)("from %i of %i, %s → %s", (current, count, direction, expected) => {
    expect(jumpIndex(current, count, direction)).toBe(expected);
  });

  it("says where the jump landed, or why it did not move", () => {
    expect(jumpMessage("violation", 1, 7, "next", "run r1, turn 11")).toBe("Violation 2 of 7: run r1, turn 11");
    expect(jumpMessage("violation", null, 7, "next")).toBe("No later violation on this page.");
    expect(jumpMessage("changed turn", null, 2, "previous")).toBe("No earlier changed turn on this page.");
    expect(jumpMessage("run with problems", null, 0, "next")).toBe("No run with problems on this page.");
  });
});
