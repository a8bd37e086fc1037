import { describe, expect, it } from "vitest";
import { reviewKeyAction } from "./review-keys";

describe("review queue keys", () => {
  it.each([
    [{ key: "j" }, { kind: "move", direction: "next" }],
    [{ key: "k" }, { kind: "move", direction: "previous" }],
    [{ key: "1" }, { kind: "verdict", verdict: "justified" }],
    [{ key: "2" }, { kind: "verdict", verdict: "unnecessary" }],
    [{ key: "3" }, { kind: "verdict", verdict: "should_dispatch" }],
    [{ key: "c" }, { kind: "comment" }],
    [{ key: "a" }, { kind: "assignToMe" }],
    [{ key: "4" }, null],
    [{ key: "J" }, null],
    // typing a comment, a select's choice, Ctrl+1 (the browser's tab), a key in the keyboard help: never the queue's
    [{ key: "1", targetTag: "textarea" }, null],
    [{ key: "1", targetTag: "INPUT", targetType: "text" }, null],
    // a verdict's radio button, just clicked, keeps the queue's keys
    [
      { key: "2", targetTag: "INPUT", targetType: "radio" },
      { kind: "verdict", verdict: "unnecessary" },
    ],
    [
      { key: "j", targetTag: "input", targetType: "checkbox" },
      { kind: "move", direction: "next" },
    ],
    [{ key: "j", targetTag: "SELECT" }, null],
    [{ key: "1", ctrlKey: true }, null],
    [{ key: "2", targetInDialog: true }, null],
  ])("%j → %j", (press, action) => {
    expect(reviewKeyAction(press)).toEqual(action);
  });
});
