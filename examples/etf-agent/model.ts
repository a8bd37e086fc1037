/**
 * The example's scripted model: deterministic, no network. It stands where an LLM call would be —
 * it gets the turn's request (the research so far and the reminders the coordinator put in) and
 * answers with one action. It heeds what the reminders say: it wraps up when the request budget
 * runs low, reviews its objectives at a checkpoint, and leaves a block alone once told its edits
 * are used up.
 */
import type { TurnPlan } from "@cuescope/sdk/coordinator";

/** Illustrative figures for the example, not investment data. */
export const FUNDS = [
  { ticker: "VOO", index: "S&P 500", expenseRatio: 0.03, holdings: 504, top10: 37.1 },
  { ticker: "IVV", index: "S&P 500", expenseRatio: 0.03, holdings: 503, top10: 37.0 },
  { ticker: "SPLG", index: "S&P 500", expenseRatio: 0.02, holdings: 503, top10: 37.0 },
  { ticker: "VTI", index: "CRSP US Total Market", expenseRatio: 0.03, holdings: 3_593, top10: 31.4 },
] as const;

export interface Block {
  title: string;
  text: string;
  edits: number;
}

export interface Research {
  /** Tool results the agent keeps in its context (compacted when the request grows). */
  notes: string[];
  /** Published text blocks by id. */
  blocks: Map<string, Block>;
  /** Which look-ups were made ("fees:VOO", "holdings:VTI", ...). */
  facts: Set<string>;
  reviewed: number;
  finalized: boolean;
}

export interface Action {
  kind: "tool_call" | "append_block" | "edit_block" | "review_objectives" | "check_evidence" | "finalize" | "other";
  blockId?: string;
  title?: string;
  text: string;
}

const EDIT_LIMIT = 3;

export function scriptedModel(research: Research, plan: TurnPlan, at: { turn: number; turns: number }): Action {
  const told = (key: string, minStage = 1) => plan.included.filter((r) => r.key === key && r.stage >= minStage);
  const exhausted = new Set(told("edits", 2).map((r) => r.subject));

  // Wrap up when the budget notice reaches its last stage, or the scripted run is over.
  if (told("requests", 3).length > 0 || at.turn >= at.turns - 1) {
    if (!research.blocks.has("b4")) return append("b4", "Recommendation", recommendation());
    return { kind: "finalize", text: `Recommendation published after ${at.turn} turns: ${recommendation()}` };
  }
  if (told("review").length > 0)
    return { kind: "review_objectives", text: "Objectives: fees, holdings overlap, tracking; evidence: fact sheets." };

  // Research first: fees, then holdings, each fund's fact sheet once.
  for (const topic of ["fees", "holdings"] as const) {
    const next = FUNDS.find((f) => !research.facts.has(`${topic}:${f.ticker}`));
    if (next) {
      research.facts.add(`${topic}:${next.ticker}`);
      return { kind: "tool_call", text: factSheet(topic, next) };
    }
    const blockId = topic === "fees" ? "b1" : "b2";
    if (!research.blocks.has(blockId)) return append(blockId, topic === "fees" ? "Expense ratios" : "Holdings overlap", summary(topic));
  }
  if (!research.blocks.has("b3"))
    return append("b3", "Tracking difference", "All four track their index within a few basis points a year.");

  // Then revise: every third turn a tool call for fresh prices, otherwise an edit of a block that has edits left.
  if (at.turn % 3 === 0) {
    const quotes = FUNDS.map((f, i) => `${f.ticker} ${(100 + ((at.turn * 7 + i * 13) % 40) / 10).toFixed(2)} (spread 0.0${1 + i}%)`);
    return { kind: "tool_call", text: `quotes at turn ${at.turn}: ${quotes.join(", ")}; volumes in line with the 30-day average.` };
  }
  const ids = [...research.blocks.keys()];
  for (let k = 0; k < ids.length; k++) {
    const id = ids[(at.turn + k) % ids.length];
    const block = research.blocks.get(id)!;
    if (!exhausted.has(id) && block.edits < EDIT_LIMIT) {
      return { kind: "edit_block", blockId: id, text: `${block.text} (revised at turn ${at.turn})` };
    }
  }
  return { kind: "check_evidence", text: "Cross-checked the fact sheets against the holdings files." };
}

function append(blockId: string, title: string, text: string): Action {
  return { kind: "append_block", blockId, title, text };
}

function factSheet(topic: "fees" | "holdings", f: (typeof FUNDS)[number]): string {
  return topic === "fees"
    ? `${f.ticker} fact sheet: tracks the ${f.index}; expense ratio ${f.expenseRatio.toFixed(2)}% a year, no purchase or redemption fees; dividends paid quarterly.`
    : `${f.ticker} holdings file: ${f.holdings.toLocaleString("en-US")} holdings; the top 10 are ${f.top10}% of assets; largest sector information technology.`;
}

function summary(topic: "fees" | "holdings"): string {
  if (topic === "fees") {
    return FUNDS.map((f) => `${f.ticker} ${f.expenseRatio.toFixed(2)}%`).join(", ") + ": the cheapest is SPLG by one basis point.";
  }
  return "VOO, IVV and SPLG hold the same S&P 500 stocks (overlap about 100%); VTI adds about 3,100 smaller companies.";
}

function recommendation(): string {
  return "For a long-term account any of VOO, IVV or SPLG is fine (same index, 0.02-0.03%); VTI if small caps are wanted.";
}
