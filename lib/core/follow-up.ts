import { REMINDER_KEYS, type TEvent, type TReminderKey, type TRunDecisions, type TTurnDecision } from "@/lib/contracts";

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

/**
 * Follow-up association (contract §8): for each reminder delivered at turn t (not uncertain), whether
 * the related model action shows up in turns t+1 … t+window. A delivery record says the text was
 * in the request, not that the model read it: this measures association, not effect.
 */
export function followUp(decisions: TRunDecisions, events: readonly TEvent[], options: { window?: number } = {}): FollowUp {
  const window = options.window ?? 3;
  const actions = actionsByTurn(events);
  const byTurn = new Map<number, TTurnDecision>(decisions.turns.map((t) => [t.turn, t]));

  const anyAction = (turn: number, match: (kind: ActionKind, blockId: string | undefined) => boolean) => {
    for (let t = turn + 1; t <= turn + window; t++) {
      if (actions.get(t)?.some((a) => match(a.kind, a.blockId))) return true;
    }
    return false;
  };

  const items: FollowUpItem[] = [];
  for (const decision of decisions.turns) {
    const { turn } = decision;
    for (const reminder of decision.reminders) {
      if (reminder.status !== "delivered") continue;
      let followed: boolean;
      switch (reminder.key) {
        case "requests":
        case "time":
          followed = anyAction(turn, (kind) => kind === "finalize");
          break;
        case "context": {
          const next = byTurn.get(turn + 1);
          followed = next !== undefined && next.requiredBytes < decision.requiredBytes;
          break;
        }
        case "edits": {
          const block = decision.meters.edits?.find((b) => b.blockId === reminder.subject);
          if (!block || block.used < block.limit) continue; // only an exhausted block's state is followed up
          followed = !anyAction(turn, (kind, blockId) => kind === "edit_block" && blockId === reminder.subject);
          break;
        }
        case "review":
          followed = anyAction(turn, (kind) => kind === "review_objectives" || kind === "check_evidence");
          break;
      }
      items.push({ turn, key: reminder.key, subject: reminder.subject, stage: reminder.stage, followed });
    }
  }

  const byKey = REMINDER_KEYS.map((key): FollowUpStat => {
    const mine = items.filter((item) => item.key === key);
    const followed = mine.filter((item) => item.followed).length;
    return { key, delivered: mine.length, followed, rate: mine.length === 0 ? null : followed / mine.length };
  });
  return { window, items, byKey };
}

function actionsByTurn(events: readonly TEvent[]): Map<number, { kind: ActionKind; blockId?: string }[]> {
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
