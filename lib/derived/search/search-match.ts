import type { TSearchKind, TSearchMatch, TSearchTerm } from "@/lib/contracts";
import { normalizeSearchText } from "./search-terms";
import { emptyMask, maskCount, maskTurns, parseMask } from "./turn-mask";

/**
 * A search query as each kind matches it: a text query is normalized as the texts are
 * (normalizeSearchText) and found anywhere in a text; a finding code, action kind or block id matches
 * when it starts with the query, case aside (an exact name is its own prefix).
 */
export interface FoldedQuery {
  /** Matched as a substring of a text term's folded form. */
  text: string;
  /** Matched as a prefix of the other kinds' folded (lowercased) form. */
  prefix: string;
}

export function foldQuery(q: string): FoldedQuery {
  return { text: normalizeSearchText(q), prefix: q.trim().toLowerCase() };
}

/** Whether a term's folded form (./search-terms.ts foldTerm) matches the query: the rule the stored search applies in SQL. */
export function termMatches(kind: TSearchKind, folded: string, query: FoldedQuery): boolean {
  return kind === "text" ? folded.includes(query.text) : folded.startsWith(query.prefix);
}

/** One stored row of a matching term: the term's index in the answer's terms, its bucket and mask. */
export interface TermHit {
  term: number;
  bucket: number;
  mask: string;
}

export interface CollectedMatches {
  /** Each term's number of turns, by term index. */
  termTurns: number[];
  total: number;
  matches: TSearchMatch[];
  truncated: boolean;
}

/**
 * The search's answer from the matching terms' stored rows (any order): each term's turn count, the
 * distinct turns holding any of them, and the first `cap` of those ascending with the terms each
 * holds. Rows of one bucket are unioned, so a turn holding two terms counts once.
 */
export function collectMatches(termCount: number, hits: readonly TermHit[], cap: number): CollectedMatches {
  const termTurns = new Array<number>(termCount).fill(0);
  const byBucket = new Map<number, TermHit[]>();
  for (const hit of hits) {
    const list = byBucket.get(hit.bucket);
    if (list) list.push(hit);
    else byBucket.set(hit.bucket, [hit]);
  }
  let total = 0;
  const matches: TSearchMatch[] = [];
  for (const bucket of [...byBucket.keys()].sort((a, b) => a - b)) {
    const rows = byBucket.get(bucket)!.map((hit) => ({ term: hit.term, bits: parseMask(hit.mask) }));
    const union = emptyMask();
    for (const { term, bits } of rows) {
      termTurns[term] += maskCount(bits);
      for (let k = 0; k < bits.length; k++) union[k] |= bits[k];
    }
    const count = maskCount(union);
    if (matches.length < cap) {
      const turnTerms = new Map<number, number[]>();
      for (const { term, bits } of rows)
        for (const turn of maskTurns(bucket, bits)) {
          const list = turnTerms.get(turn);
          if (list) list.push(term);
          else turnTerms.set(turn, [term]);
        }
      for (const turn of maskTurns(bucket, union)) {
        if (matches.length >= cap) break;
        matches.push({ turn, terms: [...new Set(turnTerms.get(turn))].sort((a, b) => a - b) });
      }
    }
    total += count;
  }
  return { termTurns, total, matches, truncated: total > matches.length };
}

/** The answer's terms with their turn counts. */
export function countedTerms(terms: readonly { kind: TSearchKind; term: string }[], termTurns: readonly number[]): TSearchTerm[] {
  return terms.map((t, i) => ({ kind: t.kind, term: t.term, turns: termTurns[i] ?? 0 }));
}
