import { formatNumber, type FormatOptions } from "./number";

/** A turn number (turns count from 0): "turn 812", compact "812" for the shared turn axis. */
export function formatTurn(turn: number, options: FormatOptions = {}): string {
  const text = formatNumber(turn, 0);
  return options.compact ? text : `turn ${text}`;
}

/** An inclusive range of turns: "turns 10–20", or "turn 7" when it holds one. */
export function formatTurnRange(first: number, last: number): string {
  return first === last ? formatTurn(first) : `turns ${formatNumber(first, 0)}–${formatNumber(last, 0)}`;
}

/** A number of turns: "1,204 turns", "1 turn". */
export function formatTurnCount(count: number): string {
  const text = formatNumber(count, 0);
  return `${text} ${text === "1" ? "turn" : "turns"}`;
}
