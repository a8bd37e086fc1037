import {
  REMINDER_KEYS,
  type TEvent,
  type TReminderDecision,
  type TReminderKey,
  type TRunDecisions,
  type TTurnDecision,
} from "@/lib/contracts";

export interface FollowUpItem {
  turn: number;
  key: TReminderKey;
  subject: string | null;
  stage: number;
  followed: boolean;
}

export interface FollowUpStat {
  key: TReminderKey;
  delivered: number;
  followed: number;
  /** followed / delivered, null when nothing was delivered. Association, never effect (R11). */
  rate: number | null;
}

export interface FollowUp {
  window: number;
  items: FollowUpItem[];
  byKey: FollowUpStat[];
}

type ActionKind = Extract<TEvent, { type: "model.action" }>["body"]["kind"];

/** The run's `model.action`s per turn (each event id once): what followUpOf looks for. */
export type ActionsByTurn = ReadonlyMap<number, readonly { kind: ActionKind; blockId?: string }[]>;

/**
 * Contract §8's rule for one reminder decided at `decision`'s turn t, whatever its status: whether
 * the related action follows in turns t+1 … t+window (a `context` notice: whether turn t+1 exists and
 * needs fewer bytes). `null` when the rule does not apply: an `edits` state of a block that is not
 * exhausted is never followed up. followUp (delivered reminders) and the effectiveness counts of
 * contract §10 (delivered and dropped reminders, due reminders) share it.
 */
export function followUpOf(
  reminder: Pick<TReminderDecision, "key" | "subject">,
  decision: TTurnDecision,
  next: TTurnDecision | undefined,
  actions: ActionsByTurn,
  window = 3,
): boolean | null {
  const turn = decision.turn;
  switch (reminder.key) {
    case "requests":
    case "time":
      return actionWithin(actions, turn, window, "finalize");
    case "context":
      return next !== undefined && next.turn === turn + 1 && next.requiredBytes < decision.requiredBytes;
    case "edits": {
      const block = decision.meters.edits?.find((b) => b.blockId === reminder.subject);
      if (!block || block.used < block.limit) return null; // only an exhausted block's state is followed up
      return !actionWithin(actions, turn, window, "edit_block", reminder.subject ?? undefined);
    }
    case "review":
      return actionWithin(actions, turn, window, "review_objectives", undefined, "check_evidence");
  }
}

/**
 * Whether an action of kind `kind` (or `orKind`), on block `blockId` when given, is in turns
 * `turn + 1 … turn + window`. A plain loop: it runs for every reminder of every rebuilt run.
 */
function actionWithin(
  actions: ActionsByTurn,
  turn: number,
  window: number,
  kind: ActionKind,
  blockId?: string,
  orKind?: ActionKind,
): boolean {
  for (let t = turn + 1; t <= turn + window; t++) {
    const list = actions.get(t);
    if (!list) continue;
    for (const a of list) {
      if ((a.kind === kind || a.kind === orKind) && (blockId === undefined || a.blockId === blockId)) return true;
    }
  }
  return false;
}

/**
 * Follow-up association (contract §8): for each reminder delivered at turn t (not uncertain), whether
 * the related model action shows up in turns t+1 … t+window. A delivery record says the text was
 * in the request, not that the model read it: this measures association, not effect.
 */
export function followUp(
  decisions: TRunDecisions,
  events: readonly TEvent[],
  options: { window?: number; /** `actionsByTurn(events)`, when the caller has it. */ actions?: ActionsByTurn } = {},
): FollowUp {
  const window = options.window ?? 3;
  const actions = options.actions ?? actionsByTurn(events);
  const items: FollowUpItem[] = [];
  decisions.turns.forEach((decision, i) => {
    for (const reminder of decision.reminders) {
      if (reminder.status !== "delivered") continue;
      const followed = followUpOf(reminder, decision, decisions.turns[i + 1], actions, window);
      if (followed === null) continue;
      items.push({ turn: decision.turn, key: reminder.key, subject: reminder.subject, stage: reminder.stage, followed });
    }
  });

  const byKey = REMINDER_KEYS.map((key): FollowUpStat => {
    const mine = items.filter((item) => item.key === key);
    const followed = mine.filter((item) => item.followed).length;
    return { key, delivered: mine.length, followed, rate: mine.length === 0 ? null : followed / mine.length };
  });
  return { window, items, byKey };
}

/** The run's `model.action`s per turn, each event id once. */
export function actionsByTurn(events: readonly TEvent[]): Map<number, { kind: ActionKind; blockId?: string }[]> {
  const seen = new Set<string>();
  const byTurn = new Map<number, { kind: ActionKind; blockId?: string }[]>();
  for (const event of events) {
    if (event.type !== "model.action" || seen.has(event.id)) continue;
    seen.add(event.id);
    const list = byTurn.get(event.turn) ?? [];
    list.push(event.body);
    byTurn.set(event.turn, list);
  }
  return byTurn;
}
