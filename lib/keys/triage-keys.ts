import type { TTriageKind } from "@/lib/contracts";
import { isTypingOrShortcut, type KeyPress } from "./key-press";

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

/** The step a key press asks for; null when it is another key, a shortcut with Ctrl/Alt/Meta, or typing. */
export function triageForKey(press: KeyPress): { kind: TTriageKind; direction: TriageDirection } | null {
  if (isTypingOrShortcut(press)) return null;
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
