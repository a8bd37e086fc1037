import type { TReviewVerdict } from "@/lib/contracts";
import { isTypingOrShortcut, type KeyPress } from "./key-press";

/** What a key press asks of the review queue. */
export type ReviewKeyAction =
  | { kind: "move"; direction: "previous" | "next" }
  | { kind: "verdict"; verdict: TReviewVerdict }
  | { kind: "comment" }
  | { kind: "assignToMe" };

/**
 * The review queue's keys (the keyboard help lists them from here): `j` / `k` the next / previous
 * candidate, `1` `2` `3` a verdict (saved with the comment box's text, then on to the next open
 * candidate), `c` the comment box, `a` assign the candidate to yourself.
 */
export const REVIEW_KEYS = {
  next: "j",
  previous: "k",
  verdicts: { "1": "justified", "2": "unnecessary", "3": "should_dispatch" } as const satisfies Record<string, TReviewVerdict>,
  comment: "c",
  assignToMe: "a",
};

/** The action a key press asks for; null for another key, a shortcut with Ctrl/Alt/Meta, or while typing. */
export function reviewKeyAction(press: KeyPress): ReviewKeyAction | null {
  if (isTypingOrShortcut(press)) return null;
  const key = press.key;
  if (key === REVIEW_KEYS.next) return { kind: "move", direction: "next" };
  if (key === REVIEW_KEYS.previous) return { kind: "move", direction: "previous" };
  if (key in REVIEW_KEYS.verdicts) return { kind: "verdict", verdict: REVIEW_KEYS.verdicts[key as keyof typeof REVIEW_KEYS.verdicts] };
  if (key === REVIEW_KEYS.comment) return { kind: "comment" };
  if (key === REVIEW_KEYS.assignToMe) return { kind: "assignToMe" };
  return null;
}
