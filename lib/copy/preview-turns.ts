import { REMINDER_KEYS, type TRunTimeline } from "@/lib/contracts";

export interface PreviewTurns {
  /** Turns where at least one reminder was dropped at capacity, ascending. */
  dropTurns: number[];
  /** Turns with at least one reminder, ascending. */
  reminderTurns: number[];
  /** The turn a preview starts on: the first with a dropped context notice, else the first with any drop, else with any reminder. */
  suggested: number | null;
}

/** Turns worth previewing copy on, from a run's timeline (its complete reminder markers). */
export function previewTurns(timeline: Pick<TRunTimeline, "reminders">): PreviewTurns {
  const drops = new Set<number>();
  const any = new Set<number>();
  let firstContextDrop: number | null = null;
  for (const key of REMINDER_KEYS) {
    for (const reminder of timeline.reminders[key]) {
      // A folded marker stands for the same reminder on every turn of [turn, toTurn].
      for (let turn = reminder.turn; turn <= (reminder.toTurn ?? reminder.turn); turn++) {
        any.add(turn);
        if (reminder.status === "dropped") drops.add(turn);
      }
      if (reminder.status !== "dropped") continue;
      if (key === "context" && (firstContextDrop === null || reminder.turn < firstContextDrop)) firstContextDrop = reminder.turn;
    }
  }
  const dropTurns = [...drops].sort((a, b) => a - b);
  const reminderTurns = [...any].sort((a, b) => a - b);
  return { dropTurns, reminderTurns, suggested: firstContextDrop ?? dropTurns[0] ?? reminderTurns[0] ?? null };
}
