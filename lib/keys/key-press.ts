/**
 * Key presses as the page-key handlers read them (the run page's ← → and triage keys, the list
 * pages' [ ], the keyboard help's ?): one plain shape, one conversion from a browser event, one rule
 * for what is typing rather than a page key (docs/architecture.md#problem-keys).
 */
/** What the page-key handlers need to know about a key press (a plain object, so it can be tested). */
export interface KeyPress {
  key: string;
  altKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  shiftKey?: boolean;
  defaultPrevented?: boolean;
  /** Tag name of the event target (e.g. "INPUT"), upper or lower case. */
  targetTag?: string | null;
  /** An input's type (`radio`, `text`…): a radio button or a checkbox takes no typing. */
  targetType?: string | null;
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
    targetType: target instanceof HTMLInputElement ? target.type : null,
    targetEditable: target?.isContentEditable ?? false,
    targetRole: target?.getAttribute("role") ?? null,
    targetInDialog: Boolean(target?.closest("dialog")),
  };
}

const TYPING_TAGS = new Set(["INPUT", "TEXTAREA", "SELECT"]);
/** Inputs that are clicked, not typed in: the page's keys work on them (a verdict's radio buttons). */
const CLICKED_INPUTS = new Set(["radio", "checkbox", "button", "submit", "reset"]);
const TYPING_ROLES = new Set(["textbox", "combobox", "searchbox"]);

/**
 * Whether a key press is not for the page: someone typing (in a field, an editable, a combobox), a
 * shortcut with Ctrl/Alt/Meta, or a key inside a dialog (the page behind a modal takes no keys).
 */
export function isTypingOrShortcut(press: KeyPress): boolean {
  if (press.altKey || press.ctrlKey || press.metaKey || press.defaultPrevented || press.targetInDialog) return true;
  if (press.targetEditable) return true;
  if (press.targetTag && TYPING_TAGS.has(press.targetTag.toUpperCase())) {
    return !(press.targetTag.toUpperCase() === "INPUT" && press.targetType && CLICKED_INPUTS.has(press.targetType.toLowerCase()));
  }
  return Boolean(press.targetRole && TYPING_ROLES.has(press.targetRole));
}
