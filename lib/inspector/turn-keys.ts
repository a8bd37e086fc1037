import { isTypingOrShortcut, type KeyPress } from "@/lib/keys/key-press";

const ARROW_ROLES = new Set([
  "slider",
  "listbox",
  "combobox",
  "menu",
  "menubar",
  "radiogroup",
  "tablist",
  "textbox",
  "spinbutton",
  "grid",
  "tree",
]);

/**
 * The turn a key press asks for: ← the previous existing turn, → the next one; null when the key
 * is not for the inspector (another key, a modifier held, already handled, or the person is typing
 * or using arrow keys on a control of their own) or there is no such turn.
 */
export function turnForKey(press: KeyPress, previousTurn: number | null, nextTurn: number | null): number | null {
  if (press.key !== "ArrowLeft" && press.key !== "ArrowRight") return null;
  if (press.shiftKey || isTypingOrShortcut(press)) return null;
  if (press.targetRole && ARROW_ROLES.has(press.targetRole)) return null;
  return press.key === "ArrowLeft" ? previousTurn : nextTurn;
}
