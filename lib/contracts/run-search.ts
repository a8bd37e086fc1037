import { z } from "zod";
import { showParam, zTextParam } from "./params";

/**
 * Search inside a run (docs/search.md): the turns of one run whose rebuilt decisions or events hold
 * a reminder text, a finding code, an action kind or a block id, read from a search index the
 * rebuild stores (one row per bucket of 256 turn numbers, kind and term; lib/derived/search).
 *
 * - `text`: a reminder's rendered text (any status), lowercased, its runs of digits written `#` and
 *   its runs of white space one space, so "37 requests left" and "36 requests left" are one term;
 *   matched as a substring of the query written the same way.
 * - `finding`: an audit finding's code (contract §7) on its turn; a run-level finding on the run's
 *   last rebuilt turn. `action`: the kind of a `model.action` of the turn. `block`: a block the turn
 *   is about (a model.action on it, an edits reminder about it, its edit meter changed). These match
 *   a case-insensitive prefix of the term.
 */
export const SEARCH_KINDS = ["text", "finding", "action", "block"] as const;
export const ZSearchKind = z.enum(SEARCH_KINDS, {
  error: (iss) => `expected one of ${SEARCH_KINDS.join(", ")}, got ${showParam(iss.input)}`,
});
export type TSearchKind = z.infer<typeof ZSearchKind>;

/** The longest search text, in characters. */
export const MAX_SEARCH_QUERY_CHARS = 200;
/** At most this many matching turns are listed (ascending); `total` counts them all. */
export const MAX_SEARCH_MATCHES = 500;
/** At most this many different terms are matched and counted (in kind, then term order). */
export const MAX_SEARCH_TERMS = 100;

/** `GET /api/v1/runs/:runId/search?q=…&kind=…`. */
export const ZRunSearchQuery = z.object({
  q: zTextParam({ max: MAX_SEARCH_QUERY_CHARS, what: `search text of 1-${MAX_SEARCH_QUERY_CHARS} characters` }).check((ctx) => {
    if (ctx.value.trim() === "")
      ctx.issues.push({ code: "custom", input: ctx.value, message: "expected search text with a character other than white space" });
  }),
  /** Only terms of this kind; absent: every kind. */
  kind: ZSearchKind.optional(),
});
export type TRunSearchQuery = z.infer<typeof ZRunSearchQuery>;

const ZTurn = z.number().int().min(0);

/** A term that matched, and on how many turns of the run it is. */
export const ZSearchTerm = z.object({
  kind: ZSearchKind,
  /** As indexed: a reminder text normalized (lowercase, digits `#`), a finding code, an action kind, a block id. */
  term: z.string(),
  turns: z.number().int().min(0),
});
export type TSearchTerm = z.infer<typeof ZSearchTerm>;

/** One matching turn and which of the answer's `terms` it holds (their indexes, ascending). */
export const ZSearchMatch = z.object({
  turn: ZTurn,
  terms: z.array(z.number().int().min(0)).min(1),
});
export type TSearchMatch = z.infer<typeof ZSearchMatch>;

export const ZRunSearch = z.object({
  runId: z.string(),
  q: z.string(),
  /** The kind searched; null: every kind. */
  kind: ZSearchKind.nullable(),
  /** False while the run's stored rebuild has no search index yet (it is being rebuilt): nothing can be said to match. */
  indexed: z.boolean(),
  /** The matching terms, in kind then term order (at most MAX_SEARCH_TERMS). */
  terms: z.array(ZSearchTerm),
  /** More terms matched than MAX_SEARCH_TERMS: only the listed ones are counted (a narrower search finds the rest). */
  termsTruncated: z.boolean(),
  /** How many turns hold a listed term. */
  total: z.number().int().min(0),
  /** The first MAX_SEARCH_MATCHES of them, ascending. */
  matches: z.array(ZSearchMatch),
  /** `total` > `matches.length`. */
  truncated: z.boolean(),
});
export type TRunSearch = z.infer<typeof ZRunSearch>;
