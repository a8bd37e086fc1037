import type { TReminderDecision, TTimelineReminder, TTimelineReminders, TTurnDecision } from "@/lib/contracts";

/** Statuses that mark a turn on its meter's chart: the reminder did not simply arrive. */
export const MARKER_STATUSES: ReadonlySet<TReminderDecision["status"]> = new Set(["dropped", "failed", "uncertain", "pending"]);

/**
 * Each meter's reminders over the turns, without text. A reminder identical (stage, status, bytes,
 * free bytes) to the same key and subject's reminder on the previous rebuilt turn extends that
 * item's `toTurn` instead of adding one: a standing edits state over 5,000 turns is one item, and
 * nothing is lost.
 */
export function reminderLanes(turns: readonly TTurnDecision[]): TTimelineReminders {
  const lanes: TTimelineReminders = { requests: [], time: [], context: [], edits: [], review: [] };
  const open = new Map<string, { item: TTimelineReminder; index: number }>();
  turns.forEach(({ turn, reminders }, index) => {
    for (const reminder of reminders) {
      const id = `${reminder.key}\u0000${reminder.subject ?? ""}`;
      const previous = open.get(id);
      if (previous && previous.index === index - 1 && sameReminder(previous.item, reminder)) {
        previous.item.toTurn = turn;
        previous.index = index;
        continue;
      }
      const item: TTimelineReminder = {
        turn,
        ...(reminder.key === "edits" && reminder.subject !== null ? { subject: reminder.subject } : {}),
        stage: reminder.stage,
        status: reminder.status,
        bytes: reminder.bytes,
        ...(reminder.status === "dropped" && reminder.freeBytes !== undefined ? { freeBytes: reminder.freeBytes } : {}),
      };
      lanes[reminder.key].push(item);
      open.set(id, { item, index });
    }
  });
  return lanes;
}

function sameReminder(item: TTimelineReminder, reminder: TReminderDecision): boolean {
  return (
    item.stage === reminder.stage &&
    item.status === reminder.status &&
    item.bytes === reminder.bytes &&
    item.freeBytes === (reminder.status === "dropped" ? reminder.freeBytes : undefined)
  );
}

/** Expands a lane back to one item per turn (for tests and the turn panel); `turns` are the rebuilt turns. */
export function expandReminders(items: readonly TTimelineReminder[], turns: readonly number[]): TTimelineReminder[] {
  const out: TTimelineReminder[] = [];
  for (const { toTurn, ...item } of items) {
    if (toTurn === undefined) out.push(item);
    else for (const turn of turns) if (turn >= item.turn && turn <= toTurn) out.push({ ...item, turn });
  }
  return out;
}
