import { describe, expect, it } from "vitest";
import { diffText, diffWords } from "./diff";

describe("word diff", () => {
  it.each([
    ["nothing changed", "a b c", "a b c", "a b c"],
    ["one word replaced: deleted and inserted apart", "a b c", "a x c", "a [-b-] {+x+} c"],
    ["added to an empty template", "", "new words", "{+new words+}"],
    [
      "words deleted with their spacing",
      "Context: this request is {requiredBytes} bytes",
      "Context: {requiredBytes} bytes",
      "Context: [-this request is -]{requiredBytes} bytes",
    ],
    // The case: the deleted end of a sentence no longer runs into the inserted one.
    ["a sentence's end reworded", "Be selectively.", "be selective.", "[-Be selectively.-] {+be selective.+}"],
    ["a word appended", "Stop now", "Stop now please", "Stop now{+ please+}"],
    ["double spaces and newlines kept", "one  two\nthree", "one  2\nthree", "one  [-two-] {+2+}\nthree"],
    ["only spacing changed", "a b", "a  b", "a[- -]{+  +}b"],
  ])("%s", (_name, before, after, shown) => {
    const diff = diffWords(before, after);
    expect(diffText(diff)).toBe(shown);
    // Each side is exactly its text again.
    expect(
      diff
        .filter((o) => o.op !== "added")
        .map((o) => o.text)
        .join(""),
    ).toBe(before);
    expect(
      diff
        .filter((o) => o.op !== "removed")
        .map((o) => o.text)
        .join(""),
    ).toBe(after);
    // Runs alternate: never two of one kind in a row.
    diff.slice(1).forEach((o, i) => expect(o.op).not.toBe(diff[i].op));
  });
});
