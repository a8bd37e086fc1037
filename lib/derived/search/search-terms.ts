import type { TFinding, TSearchKind, TTurnDecision } from "@/lib/contracts";
import { bucketOfTurn } from "@/lib/derived/compare/decision-digests";
import { emptyMask, maskText, setTurn, type MaskBits } from "./turn-mask";

/**
 * A run's search index (docs/search.md), computed by the rebuild and stored beside its decisions
 * (run_search_terms): for each bucket of 256 turn numbers, each kind and each term found on a turn
 * of the bucket, the mask of those turns (./turn-mask.ts).
 */
export interface SearchTermRow {
  bucket: number;
  kind: TSearchKind;
  /** As shown: the normalized text, the finding code, the action kind, the block id (at most MAX_TERM_CHARS). */
  term: string;
  /** What a query is matched against (./search-match.ts): the text as is, the others lowercased. */
  folded: string;
  /** The bucket's turns holding the term. */
  mask: string;
}

/**
 * The longest term kept, in characters (code points): a longer text is indexed by its first
 * MAX_TERM_CHARS. It keeps a term within what a PostgreSQL b-tree key may hold (2,704 bytes).
 */
export const MAX_TERM_CHARS = 500;

/**
 * A reminder text as it is indexed, and a text query as it is matched: lowercase, each run of ASCII
 * digits one `#` ("37 requests" and "5 requests" are both "# requests"), each run of white space
 * one space, without white space at either end.
 */
export function normalizeSearchText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[0-9]+/g, "#")
    .replace(/\s+/g, " ")
    .trim();
}

/** The text a term of `kind` is matched on: a text is already normalized; codes, kinds and block ids match without case. */
export function foldTerm(kind: TSearchKind, term: string): string {
  return kind === "text" ? term : term.toLowerCase();
}

function clip(text: string): string {
  if (text.length <= MAX_TERM_CHARS) return text;
  return Array.from(text).slice(0, MAX_TERM_CHARS).join("");
}

/** One model.action of a turn, as lib/core's actionsByTurn lists them. */
export interface TurnAction {
  kind: string;
  blockId?: string;
}

export interface SearchTermsInput {
  /** The rebuilt turns, in turn order (all of them, also on a resume). */
  turns: readonly TTurnDecision[];
  findings: readonly TFinding[];
  /** The run's model.action events by turn (every turn's, also on a resume). */
  actions: ReadonlyMap<number, readonly TurnAction[]>;
  /** Compute only the buckets from this one on (a resume); null: every bucket. */
  fromBucket: number | null;
}

/**
 * The search index's rows of the buckets from `fromBucket` on, in bucket, kind (SEARCH_KINDS'
 * order), then term (UTF-16 code unit) order. A turn is indexed under:
 * - `text`: each of its reminders' texts, normalized (normalizeSearchText), whatever their status;
 * - `finding`: each finding code on it; a run-level finding (no turn) on the run's last rebuilt turn;
 * - `action`: the kind of each of its model.action events;
 * - `block`: each block acted on (a model.action's blockId), each block an edits reminder is about
 *   (its subject), and each block whose edit meter appeared or changed (used or limit) since the
 *   previous rebuilt turn. A meter carried over unchanged is not a mention: it is on every later turn.
 * Turns without a rebuilt decision (a skipped turn) are indexed for their findings and actions.
 */
export function searchTermRows({ turns, findings, actions, fromBucket }: SearchTermsInput): SearchTermRow[] {
  const from = fromBucket ?? 0;
  const buckets = new Map<number, Map<string, { kind: TSearchKind; term: string; bits: MaskBits }>>();
  const add = (turn: number, kind: TSearchKind, raw: string) => {
    const bucket = bucketOfTurn(turn);
    if (bucket < from) return;
    const term = clip(raw);
    let terms = buckets.get(bucket);
    if (!terms) buckets.set(bucket, (terms = new Map()));
    const key = `${kind}\u0000${term}`;
    let entry = terms.get(key);
    if (!entry) terms.set(key, (entry = { kind, term, bits: emptyMask() }));
    setTurn(entry.bits, turn);
  };

  let at = 0;
  while (at < turns.length && bucketOfTurn(turns[at].turn) < from) at++;
  for (; at < turns.length; at++) {
    const turn = turns[at];
    for (const reminder of turn.reminders) {
      const text = normalizeSearchText(reminder.text);
      if (text !== "") add(turn.turn, "text", text);
      if (reminder.key === "edits" && reminder.subject) add(turn.turn, "block", reminder.subject);
    }
    const before = new Map((at > 0 ? (turns[at - 1].meters.edits ?? []) : []).map((m) => [m.blockId, m]));
    for (const meter of turn.meters.edits ?? []) {
      const was = before.get(meter.blockId);
      if (!was || was.used !== meter.used || was.limit !== meter.limit) add(turn.turn, "block", meter.blockId);
    }
  }
  const lastTurn = turns.at(-1)?.turn;
  for (const finding of findings) {
    const turn = finding.turn ?? lastTurn;
    if (turn !== undefined) add(turn, "finding", finding.code);
  }
  for (const [turn, list] of actions) {
    for (const action of list) {
      add(turn, "action", action.kind);
      if (action.blockId) add(turn, "block", action.blockId);
    }
  }

  const rows: SearchTermRow[] = [];
  for (const bucket of [...buckets.keys()].sort((a, b) => a - b)) {
    const entries = [...buckets.get(bucket)!.values()].sort(
      (a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0),
    );
    for (const { kind, term, bits } of entries) rows.push({ bucket, kind, term, folded: foldTerm(kind, term), mask: maskText(bits) });
  }
  return rows;
}

const KIND_ORDER: Record<TSearchKind, number> = { text: 0, finding: 1, action: 2, block: 3 };
