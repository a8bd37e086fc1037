import type { TurnWindow } from "./turn-window";
import { turnFraction } from "./turn-window";

/** A mark of the run page's notes lane: one commented turn, or neighbouring ones folded together. */
export interface NoteMark {
  /** The turn a click selects: the first of the mark's turns. */
  turn: number;
  toTurn: number;
  /** Comments on the mark's turns. */
  count: number;
  /** Where it sits, 0…1 across the plot. */
  x: number;
  title: string;
}

/**
 * The notes lane's marks for the turns with comments inside the window: turns closer together than
 * `minGap` of the plot width share one mark (which counts their comments and selects the first), so
 * a whole-run view of a long run stays readable. Input in turn order, as the API sends it.
 */
export function noteMarks(turns: readonly { turn: number; count: number }[], domain: TurnWindow, minGap = 0.01): NoteMark[] {
  const marks: NoteMark[] = [];
  for (const { turn, count } of turns) {
    if (turn < domain.from || turn > domain.to) continue;
    const x = domain.to === domain.from ? 0.5 : turnFraction(turn, domain);
    const last = marks.at(-1);
    if (last && x - last.x < minGap) {
      last.toTurn = turn;
      last.count += count;
      continue;
    }
    marks.push({ turn, toTurn: turn, count, x, title: "" });
  }
  for (const mark of marks) {
    const where = mark.toTurn === mark.turn ? `turn ${mark.turn}` : `turns ${mark.turn}–${mark.toTurn}`;
    mark.title = `${mark.count} ${mark.count === 1 ? "comment" : "comments"} on ${where}`;
  }
  return marks;
}
