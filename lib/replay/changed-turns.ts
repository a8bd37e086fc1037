import type { TRunDecisions, TTurnDecision } from "@/lib/contracts";

export interface ChangedTurn {
  turn: number;
  /** What differs, for people: e.g. "context: delivered → dropped", "review: text". */
  changes: string[];
  /**
   * Whether a reminder's fate changed — it appeared, disappeared, or changed status or stage —
   * rather than only its text (and so its bytes).
   */
  fate: boolean;
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
    const { changes, fate } = diffTurn(before.get(turn), other.get(turn));
    if (changes.length) changed.push({ turn, changes, fate });
  }
  return changed;
}

/**
 * Up to `limit` changed turns to list, in turn order, those where a reminder's fate changed first:
 * they answer "which turns would have delivered or dropped differently".
 */
export function turnsToList(changed: readonly ChangedTurn[], limit: number): ChangedTurn[] {
  if (changed.length <= limit) return [...changed];
  const fate = changed.filter((c) => c.fate);
  const chosen = new Set(fate.slice(0, limit));
  for (const c of changed) {
    if (chosen.size >= limit) break;
    chosen.add(c);
  }
  return changed.filter((c) => chosen.has(c));
}

function diffTurn(a: TTurnDecision | undefined, b: TTurnDecision | undefined): { changes: string[]; fate: boolean } {
  const label = (r: { key: string; subject: string | null }) => (r.subject === null ? r.key : `${r.key} ${r.subject}`);
  const index = (t: TTurnDecision | undefined) => new Map((t?.reminders ?? []).map((r) => [label(r), r]));
  const left = index(a);
  const right = index(b);
  const changes: string[] = [];
  let fate = false;
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
    if (!x || !y || x.status !== y.status || x.stage !== y.stage) fate = true;
  }
  return { changes, fate };
}

/** Each delivery status's mark, as the status marks show them (shape, not colour alone). */
const MARK: Record<string, string> = { delivered: "●", dropped: "✕", failed: "▲", uncertain: "◆", pending: "○" };

/**
 * A changed turn's chip: the turn and what changed, short ("286 · context ✕→●"), with the same in
 * words for screen readers ("Turn 286: context dropped → delivered"). At most two changes are
 * shown; the rest are counted ("+2 more"). Read from `changes` as changedTurns words them.
 */
export function chipOf(changed: Pick<ChangedTurn, "turn" | "changes">): { text: string; spoken: string } {
  const parts = changed.changes.map(shortChange);
  const shown = parts.slice(0, 2);
  const more = parts.length - shown.length;
  return {
    text: [String(changed.turn), ...shown].join(" · ") + (more > 0 ? ` +${more} more` : ""),
    spoken: `Turn ${changed.turn}: ${changed.changes.join("; ")}`,
  };
}

function shortChange(change: string): string {
  const at = change.indexOf(": ");
  if (at < 0) return change;
  const name = change.slice(0, at);
  const what = change.slice(at + 2);
  const mark = (status: string) => MARK[status] ?? status;
  let m: RegExpExecArray | null;
  if ((m = /^new \((\w+)\)$/.exec(what))) return `${name} new ${mark(m[1])}`;
  if ((m = /^gone \(was (\w+)\)$/.exec(what))) return `${name} ${mark(m[1])}→gone`;
  if ((m = /^stage (\d+) → (\d+)$/.exec(what))) return `${name} stage ${m[1]}→${m[2]}`;
  if ((m = /^(\w+) → (\w+)$/.exec(what))) return `${name} ${mark(m[1])}→${mark(m[2])}`;
  if (/^text /.test(what)) return `${name} reworded`;
  return change;
}
