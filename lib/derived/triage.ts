import type { TFinding, TTriageCounts, TTurnDecision, TriageMark } from "@/lib/contracts";

/**
 * The triage marks of a run's rebuilt decisions (docs/architecture.md#run-triage): one mark per
 * turn and kind — a turn with a dropped reminder, a turn with a finding, a turn with a failed or
 * uncertain delivery — in turn order within each kind. A resumed rebuild stores those of its last
 * turns only (lib/server/rebuild/rebuild-task.ts); the counts are always of the whole run.
 */
export function triageMarks(turns: readonly TTurnDecision[], findings: readonly TFinding[]): TriageMark[] {
  const drop = new Set<number>();
  const delivery = new Set<number>();
  const finding = new Set<number>();
  for (const turn of turns) {
    for (const reminder of turn.reminders) {
      if (reminder.status === "dropped") drop.add(turn.turn);
      else if (reminder.status === "failed" || reminder.status === "uncertain") delivery.add(turn.turn);
    }
  }
  for (const f of findings) if (f.turn !== null) finding.add(f.turn);
  const sorted = (set: Set<number>) => [...set].sort((a, b) => a - b);
  return [
    ...sorted(drop).map((turn) => ({ kind: "drop" as const, turn })),
    ...sorted(finding).map((turn) => ({ kind: "finding" as const, turn })),
    ...sorted(delivery).map((turn) => ({ kind: "delivery" as const, turn })),
  ];
}

/** How many turns of each kind (the triage bar's counts). */
export function triageCounts(marks: readonly TriageMark[]): TTriageCounts {
  const counts: TTriageCounts = { drop: 0, finding: 0, delivery: 0 };
  for (const mark of marks) counts[mark.kind] += 1;
  return counts;
}

/**
 * The first turn a resumed rebuild rewrites, for its triage marks: the first turn of the first
 * chunk it writes (`firstIndex`, an index into `turns`), or one past the last turn when it writes
 * no turn. Marks at this turn and later are replaced; earlier ones are unchanged by the resume.
 */
export function rewrittenFromTurn(turns: readonly TTurnDecision[], firstIndex: number): number {
  if (firstIndex < turns.length) return turns[firstIndex].turn;
  return turns.length ? turns[turns.length - 1].turn + 1 : 0;
}
