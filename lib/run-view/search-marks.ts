import { MAX_SEARCH_TERMS, type TRunSearch, type TSearchKind, type TSearchMatch, type TSearchTerm } from "@/lib/contracts";
import { formatNumber, formatTurn, formatTurnCount, formatTurnRange } from "@/lib/format";
import { turnFraction, type TurnWindow } from "./turn-window";

/** What each kind of term is called before it ("reminder text “# requests left”"). */
export const SEARCH_KIND_NAMES: Record<TSearchKind, string> = {
  text: "reminder text",
  finding: "finding",
  action: "action",
  block: "block",
};

/** A matched term in words: `reminder text “# requests left”`, `finding MISSING_REMINDER`. */
export function describeTerm(term: Pick<TSearchTerm, "kind" | "term">): string {
  return `${SEARCH_KIND_NAMES[term.kind]} “${term.term}”`;
}

/** What a matching turn holds, in words: its terms, the first two named and the rest counted. */
export function describeMatch(match: TSearchMatch, terms: readonly TSearchTerm[]): string {
  const named = match.terms.slice(0, 2).map((i) => (terms[i] ? describeTerm(terms[i]) : "a match"));
  const more = match.terms.length - named.length;
  return `${formatTurn(match.turn)}: ${named.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}

/** The sentence under the search box: how many turns match, and what is left out. */
export function searchSummary(answer: TRunSearch): string {
  if (!answer.indexed) return "This run's search index is being built with its rebuild; search again in a moment.";
  if (answer.total === 0) return answer.kind === null ? "No turn matches." : `No turn matches as ${SEARCH_KIND_NAMES[answer.kind]}.`;
  const count = formatTurnCount(answer.total);
  let text = `${count} ${answer.total === 1 ? "matches" : "match"}`;
  if (answer.truncated) text += ` · showing first ${formatNumber(answer.matches.length)}`;
  if (answer.termsTruncated) text += ` · more than ${formatNumber(MAX_SEARCH_TERMS)} different terms match: search for more of the words`;
  return text;
}

/** A mark of the search lane: one matching turn, or neighbouring ones folded together. */
export interface SearchMark {
  /** The turn a click selects: the first of the mark's turns. */
  turn: number;
  toTurn: number;
  /** Matching turns the mark stands for. */
  count: number;
  /** Where it sits, 0…1 across the plot. */
  x: number;
  title: string;
}

/**
 * The search lane's marks for the listed matches inside the window (turn order): turns closer
 * together than `minGap` of the plot width share one mark that selects the first, so a whole-run
 * view of many matches stays readable; zoomed in they are apart again.
 */
export function searchMarks(
  matches: readonly TSearchMatch[],
  terms: readonly TSearchTerm[],
  domain: TurnWindow,
  minGap = 0.008,
): SearchMark[] {
  const marks: (SearchMark & { first: TSearchMatch })[] = [];
  for (const match of matches) {
    if (match.turn < domain.from || match.turn > domain.to) continue;
    const x = domain.to === domain.from ? 0.5 : turnFraction(match.turn, domain);
    const last = marks.at(-1);
    if (last && x - last.x < minGap) {
      last.toTurn = match.turn;
      last.count += 1;
      continue;
    }
    marks.push({ turn: match.turn, toTurn: match.turn, count: 1, x, title: "", first: match });
  }
  return marks.map(({ first, ...mark }) => ({
    ...mark,
    title:
      mark.count === 1
        ? describeMatch(first, terms)
        : `${formatTurnRange(mark.turn, mark.toTurn)}: ${formatNumber(mark.count)} matching turns (the first selected)`,
  }));
}

/**
 * The listed match to step to from `from` (the selected turn; null: from before the run): the first
 * after it, or the last before it. Null when there is none that way among the listed matches.
 */
export function stepMatch(matches: readonly TSearchMatch[], from: number | null, direction: "previous" | "next"): number | null {
  if (direction === "next") return matches.find((m) => from === null || m.turn > from)?.turn ?? null;
  if (from === null) return matches.at(-1)?.turn ?? null;
  for (let i = matches.length - 1; i >= 0; i--) if (matches[i].turn < from) return matches[i].turn;
  return null;
}
