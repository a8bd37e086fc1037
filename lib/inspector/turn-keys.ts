/** What the ← → handler needs to know about a key press (a plain object, so it can be tested). */
export interface KeyPress {
  key: string;
  altKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  shiftKey?: boolean;
  defaultPrevented?: boolean;
  /** Tag name of the event target (e.g. "INPUT"), upper or lower case. */
  targetTag?: string | null;
  /** Whether the target is contenteditable. */
  targetEditable?: boolean;
  /** The target's role attribute, if any (a slider or a listbox keeps its arrow keys). */
  targetRole?: string | null;
  /** The target is inside a dialog (the keyboard help): the page behind it takes no keys. */
  targetInDialog?: boolean;
}

/** A browser key event as a KeyPress (what the page-key handlers read). */
export function keyPressOf(event: KeyboardEvent): KeyPress {
  const target = event.target instanceof HTMLElement ? event.target : null;
  return {
    key: event.key,
    altKey: event.altKey,
    ctrlKey: event.ctrlKey,
    metaKey: event.metaKey,
    shiftKey: event.shiftKey,
    defaultPrevented: event.defaultPrevented,
    targetTag: target?.tagName ?? null,
    targetEditable: target?.isContentEditable ?? false,
    targetRole: target?.getAttribute("role") ?? null,
    targetInDialog: Boolean(target?.closest("dialog")),
  };
}

const TYPING_TAGS = new Set(["INPUT", "TEXTAREA", "SELECT"]);
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
  if (press.altKey || press.ctrlKey || press.metaKey || press.shiftKey || press.defaultPrevented || press.targetInDialog) return null;
  if (press.targetEditable || (press.targetTag && TYPING_TAGS.has(press.targetTag.toUpperCase()))) return null;
  if (press.targetRole && ARROW_ROLES.has(press.targetRole)) return null;
  return press.key === "ArrowLeft" ? previousTurn : nextTurn;
}
