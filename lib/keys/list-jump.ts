import { isTypingOrShortcut, type KeyPress } from "./key-press";

export type JumpDirection = "previous" | "next";

/**
 * The list pages' problem keys (docs/architecture.md#problem-keys): `]` the next flagged row of the
 * page (a Reviewer violation, a run with drops or findings, a changed turn of a replay), `[` the
 * previous one; the same keys the run page uses for its dropped reminders.
 */
export const JUMP_KEYS: Record<JumpDirection, string> = { previous: "[", next: "]" };

/** The direction a key press asks for; null for another key, a shortcut with Ctrl/Alt/Meta, or while typing. */
export function jumpForKey(press: KeyPress): JumpDirection | null {
  if (isTypingOrShortcut(press)) return null;
  if (press.key === JUMP_KEYS.next) return "next";
  if (press.key === JUMP_KEYS.previous) return "previous";
  return null;
}

/**
 * Where the keyboard focus is, seen from the page's flagged items: on item `on` (or inside it), or
 * elsewhere with item `before` the first one after it (`count` when none is), or nowhere (the body).
 */
export type JumpPosition = { on: number } | { before: number } | null;

/**
 * The item to move to among `count` items in page order: the next / previous one from the focus —
 * from nowhere, the first / last; null past either end (no wrapping, so "no later one" is said
 * instead of silently starting over).
 */
export function jumpIndex(at: JumpPosition, count: number, direction: JumpDirection): number | null {
  if (count === 0) return null;
  let next: number;
  if (at === null) next = direction === "next" ? 0 : count - 1;
  else if ("on" in at) next = direction === "next" ? at.on + 1 : at.on - 1;
  else next = direction === "next" ? at.before : at.before - 1;
  return next >= 0 && next < count ? next : null;
}

/** What the live region says after a jump: "Violation 2 of 7: …", or why nothing moved. */
export function jumpMessage(noun: string, index: number | null, count: number, direction: JumpDirection, what = ""): string {
  const capital = noun.charAt(0).toUpperCase() + noun.slice(1);
  if (count === 0) return `No ${noun} on this page.`;
  if (index === null) return direction === "next" ? `No later ${noun} on this page.` : `No earlier ${noun} on this page.`;
  return `${capital} ${index + 1} of ${count}${what ? `: ${what}` : ""}`;
}
