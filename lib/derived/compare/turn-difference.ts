import type { TTurnDecision, TTurnDifference } from "@/lib/contracts";
import { remindersSignature, reviewerSignature } from "./decision-digests";

/** How one turn's decisions of two runs differ: nothing, or which parts (a turn only one run rebuilt differs whole). */
export function turnDifference(a: TTurnDecision | undefined, b: TTurnDecision | undefined): TTurnDifference {
  if (!a && !b) return "same";
  if (!b) return "only-a";
  if (!a) return "only-b";
  const reminders = remindersSignature(a) !== remindersSignature(b);
  const reviewer = reviewerSignature(a) !== reviewerSignature(b);
  if (!reminders && !reviewer) return "same";
  return reminders && reviewer ? "reminders-and-reviewer" : reminders ? "reminders" : "reviewer";
}

/**
 * The first turn after `after` (or the last before `before`) within `[from, to]` where the two
 * runs' decisions differ, from the decisions of both runs over that range (ascending turns); null
 * when they agree on every turn there.
 */
export function firstDifferingTurn(
  a: readonly TTurnDecision[],
  b: readonly TTurnDecision[],
  range: { from: number; to: number },
  direction: "next" | "previous",
): number | null {
  const byTurnA = new Map(a.map((t) => [t.turn, t]));
  const byTurnB = new Map(b.map((t) => [t.turn, t]));
  const turns = [...new Set([...byTurnA.keys(), ...byTurnB.keys()])].filter((t) => t >= range.from && t <= range.to).sort((x, y) => x - y);
  if (direction === "previous") turns.reverse();
  for (const turn of turns) if (turnDifference(byTurnA.get(turn), byTurnB.get(turn)) !== "same") return turn;
  return null;
}
