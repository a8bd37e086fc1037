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
    [{ key: "]", targetTag: "BUTTON", targetInDialog: true }, null],
    [{ key: "}" }, null],
    [{ key: "n" }, null],
  ] as const)("%o → %s", (press, expected) => {
    expect(jumpForKey(press)).toBe(expected);
  });

  it.each([
    // where the focus is, count, direction, expected
    [null, 3, "next", 0],
    [null, 3, "previous", 2],
    [{ on: 0 }, 3, "next", 1],
    [{ on: 2 }, 3, "next", null],
    [{ on: 0 }, 3, "previous", null],
    [{ on: 1 }, 3, "previous", 0],
    // elsewhere on the page: the next item is the first after the focus, the previous the last before it
    [{ before: 1 }, 3, "next", 1],
    [{ before: 1 }, 3, "previous", 0],
    [{ before: 0 }, 3, "previous", null],
    [{ before: 3 }, 3, "next", null],
    [{ before: 3 }, 3, "previous", 2],
    [null, 0, "next", null],
  ] as const)("from %o of %i, %s → %s", (at, count, direction, expected) => {
    expect(jumpIndex(at, count, direction)).toBe(expected);
  });

  it("says where the jump landed, or why it did not move", () => {
    expect(jumpMessage("violation", 1, 7, "next", "run r1, turn 11")).toBe("Violation 2 of 7: run r1, turn 11");
    expect(jumpMessage("violation", null, 7, "next")).toBe("No later violation on this page.");
    expect(jumpMessage("changed turn", null, 2, "previous")).toBe("No earlier changed turn on this page.");
    expect(jumpMessage("run with problems", null, 0, "next")).toBe("No run with problems on this page.");
  });
});
