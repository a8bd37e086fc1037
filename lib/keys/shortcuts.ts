import { TRIAGE_KEYS } from "./triage-keys";
import { JUMP_KEYS } from "./list-jump";
import { REVIEW_KEYS } from "./review-keys";

/** One line of the keyboard help: the keys (each shown as its own key cap) and what they do. */
export interface Shortcut {
  keys: readonly string[];
  does: string;
}

/** A page's shortcuts; `path` is matched against the page's path (a prefix; `/runs/` is a run page). */
export interface ShortcutGroup {
  title: string;
  path: RegExp | null;
  shortcuts: readonly Shortcut[];
}

const jump = (what: string): Shortcut => ({ keys: [JUMP_KEYS.previous, JUMP_KEYS.next], does: `previous / next ${what}` });

/**
 * Every page's keys, for the keyboard help (`?`) (docs/architecture.md#problem-keys). The triage and
 * list keys come from their handlers' own tables (TRIAGE_KEYS, JUMP_KEYS); the arrows, the brush's
 * zoom keys and Esc are written here, as the inspector's and the brush's handlers read them.
 */
export const SHORTCUT_GROUPS: readonly ShortcutGroup[] = [
  {
    title: "Run page",
    path: /^\/runs\/[^/]+$/,
    shortcuts: [
      { keys: [TRIAGE_KEYS.drop.previous, TRIAGE_KEYS.drop.next], does: "previous / next dropped reminder" },
      { keys: [TRIAGE_KEYS.finding.previous, TRIAGE_KEYS.finding.next], does: "previous / next finding" },
      { keys: [TRIAGE_KEYS.delivery.previous, TRIAGE_KEYS.delivery.next], does: "previous / next failed or uncertain delivery" },
      { keys: ["←", "→"], does: "previous / next turn (a turn selected)" },
      { keys: ["+", "-", "0"], does: "zoom in / out / whole run (on the turn brush)" },
      { keys: ["Esc"], does: "close the turn inspector" },
    ],
  },
  { title: "Runs list", path: /^\/runs$/, shortcuts: [jump("run with dropped reminders, findings or violations")] },
  { title: "Run comparison", path: /^\/compare$/, shortcuts: [jump("turn where the two runs decided differently")] },
  { title: "Reviewer audit", path: /^\/reviewer$/, shortcuts: [jump("candidate with a violation")] },
  {
    title: "Review queue",
    path: /^\/reviewer\/queue$/,
    shortcuts: [
      { keys: [REVIEW_KEYS.previous, REVIEW_KEYS.next], does: "previous / next candidate" },
      {
        keys: Object.keys(REVIEW_KEYS.verdicts),
        does: "verdict: justified / unnecessary / should have been dispatched (saved, then the next open one)",
      },
      { keys: [REVIEW_KEYS.comment], does: "write a comment (Esc leaves the box)" },
      { keys: [REVIEW_KEYS.assignToMe], does: "assign the candidate to yourself" },
    ],
  },
  {
    title: "Copy and replay",
    path: /^\/copy(\/|$)/,
    shortcuts: [
      jump("changed turn in a replay's results"),
      { keys: ["←", "→"], does: "previous / next changed turn (a replayed turn's view)" },
    ],
  },
  {
    title: "Everywhere",
    path: null,
    shortcuts: [
      { keys: ["?"], does: "this list" },
      { keys: ["Tab"], does: "from the top of a page: skip links to the content (and on a run page, the inspector and findings)" },
    ],
  },
];

/** The groups with the page's own first (the one whose path matches), then the others in order. */
export function shortcutGroupsFor(pathname: string): { current: ShortcutGroup | null; groups: ShortcutGroup[] } {
  const current = SHORTCUT_GROUPS.find((group) => group.path?.test(pathname)) ?? null;
  return { current, groups: current ? [current, ...SHORTCUT_GROUPS.filter((group) => group !== current)] : [...SHORTCUT_GROUPS] };
}
