import type { TRunDecisions, TTurnDecision } from "../contracts";

export interface ChangedTurn {
  turn: number;
  /** What differs, for people: e.g. "context: delivered → dropped", "review: text". */
  changes: string[];
}

/**
 * The turns whose reminder decisions differ between a baseline and a what-if rebuild of the same
 * run: a reminder appearing or disappearing, its stage, status or text. Meters do not change
 * (facts are the same); only advice and its fitting do.
 */
export function changedTurns(baseline: TRunDecisions, whatIf: TRunDecisions): ChangedTurn[] {
  const other = new Map(whatIf.turns.map((t) => [t.turn, t]));
  const changed: ChangedTurn[] = [];
  const turns = new Set([...baseline.turns.map((t) => t.turn), ...other.keys()]);
  const before = new Map(baseline.turns.map((t) => [t.turn, t]));
  for (const turn of [...turns].sort((a, b) => a - b)) {
    const changes = diffTurn(before.get(turn), other.get(turn));
    if (changes.length) changed.push({ turn, changes });
  }
  return changed;
}

function diffTurn(a: TTurnDecision | undefined, b: TTurnDecision | undefined): string[] {
  const label = (r: { key: string; subject: string | null }) => (r.subject === null ? r.key : `${r.key} ${r.subject}`);
  const index = (t: TTurnDecision | undefined) => new Map((t?.reminders ?? []).map((r) => [label(r), r]));
  const left = index(a);
  const right = index(b);
  const changes: string[] = [];
  for (const name of new Set([...left.keys(), ...right.keys()])) {
    const x = left.get(name);
    const y = right.get(name);
    if (!x) changes.push(`${name}: new (${y!.status})`);
    else if (!y) changes.push(`${name}: gone (was ${x.status})`);
    else {
      if (x.status !== y.status) changes.push(`${name}: ${x.status} → ${y.status}`);
      if (x.stage !== y.stage) changes.push(`${name}: stage ${x.stage} → ${y.stage}`);
      if (x.text !== y.text) changes.push(`${name}: text (${x.bytes} → ${y.bytes} B)`);
    }
  }
  return changes;
}
