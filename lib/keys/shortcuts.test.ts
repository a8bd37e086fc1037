import { describe, expect, it } from "vitest";
import { turnForKey } from "@/lib/inspector/turn-keys";
import { triageForKey } from "@/lib/keys/triage-keys";
import { jumpForKey } from "./list-jump";
import { reviewKeyAction } from "./review-keys";
import { SHORTCUT_GROUPS, shortcutGroupsFor } from "./shortcuts";

describe("keyboard help", () => {
  it.each([
    ["/runs/etf-fees-voo", "Run page"],
    ["/runs", "Runs list"],
    ["/reviewer", "Reviewer audit"],
    ["/reviewer/queue", "Review queue"],
    ["/copy", "Copy and replay"],
    ["/copy/replay/job-1/runs/r/turns/3", "Copy and replay"],
    ["/trends", null],
    ["/", null],
  ])("%s puts %s first", (pathname, title) => {
    const { current, groups } = shortcutGroupsFor(pathname);
    expect(current?.title ?? null).toBe(title);
    if (title) expect(groups[0].title).toBe(title);
    expect(groups).toHaveLength(SHORTCUT_GROUPS.length);
  });

  it("lists only keys the pages answer", () => {
    const run = SHORTCUT_GROUPS.find((g) => g.title === "Run page")!;
    const triage = run.shortcuts.slice(0, 3).flatMap((s) => s.keys);
    for (const key of triage) expect(triageForKey({ key }), key).not.toBeNull();
    expect(turnForKey({ key: "ArrowLeft" }, 1, 3)).toBe(1);
    const queue = SHORTCUT_GROUPS.find((g) => g.title === "Review queue")!;
    for (const key of queue.shortcuts.flatMap((s) => s.keys)) expect(reviewKeyAction({ key }), key).not.toBeNull();
    for (const group of SHORTCUT_GROUPS.filter((g) => !["Run page", "Review queue", "Everywhere"].includes(g.title))) {
      const [jump] = group.shortcuts;
      expect(jump.keys.map((key) => jumpForKey({ key }))).toEqual(["previous", "next"]);
    }
  });
});
