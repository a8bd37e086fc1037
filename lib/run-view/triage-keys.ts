import type { TTriageKind } from "@/lib/contracts";
import type { KeyPress } from "@/lib/inspector/turn-keys";

export type TriageDirection = "previous" | "next";

/**
 * The run page's triage keys (docs/architecture.md#run-triage): `[` `]` the previous / next
 * dropped reminder, `p` `n` the previous / next finding, `{` `}` the previous / next failed or
 * uncertain delivery. Labels for the bar's buttons and hints come from here too.
 */
export const TRIAGE_KEYS: Record<TTriageKind, Record<TriageDirection, string>> = {
  drop: { previous: "[", next: "]" },
  finding: { previous: "p", next: "n" },
  delivery: { previous: "{", next: "}" },
};

const TYPING_TAGS = new Set(["INPUT", "TEXTAREA", "SELECT"]);

/** The step a key press asks for; null when it is another key, a shortcut with Ctrl/Alt/Meta, or typing. */
export function triageForKey(press: KeyPress): { kind: TTriageKind; direction: TriageDirection } | null {
  if (press.altKey || press.ctrlKey || press.metaKey || press.defaultPrevented) return null;
  if (press.targetEditable || (press.targetTag && TYPING_TAGS.has(press.targetTag.toUpperCase()))) return null;
  if (press.targetRole === "textbox" || press.targetRole === "combobox" || press.targetRole === "searchbox") return null;
  for (const kind of Object.keys(TRIAGE_KEYS) as TTriageKind[]) {
    for (const direction of ["previous", "next"] as const) {
      // Letters either case (Caps Lock); brackets as typed (Shift gives the braces).
      if (
        press.key === TRIAGE_KEYS[kind][direction] ||
        (press.key.toLowerCase() === TRIAGE_KEYS[kind][direction] && /^[a-z]$/.test(TRIAGE_KEYS[kind][direction]))
      ) {
        return { kind, direction };
      }
    }
  }
  return null;
}
