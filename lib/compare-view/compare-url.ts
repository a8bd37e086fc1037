import type { Alignment } from "./overlay";

/**
 * What the comparison puts side by side: run A and run B, or run A and its own what-if under a
 * replay job (`replay`: the job's id; docs/compare.md, "A run against its what-if replay").
 */
export type CompareSides = { a: string; b: string; replay?: undefined } | { a: string; replay: string; b?: undefined };

/**
 * The comparison page's URL: the runs (or the run and the replay whose what-if is B), the selected
 * turn and the alignment (its default, by turn, left out). Shareable as it is.
 */
export function compareUrl({
  turn = null,
  alignment = "turn",
  ...sides
}: CompareSides & {
  turn?: number | null;
  alignment?: Alignment;
}): string {
  const query = new URLSearchParams(sides.replay !== undefined ? { a: sides.a, replay: sides.replay } : { a: sides.a, b: sides.b });
  if (turn !== null) query.set("turn", String(turn));
  if (alignment !== "turn") query.set("align", alignment);
  return `/compare?${query}`;
}

/** The runs ticked for comparison after ticking or unticking `runId`: at most two, a third tick lets the first go. */
export function toggledPair(chosen: readonly string[], runId: string): string[] {
  if (chosen.includes(runId)) return chosen.filter((id) => id !== runId);
  return [...chosen, runId].slice(-2);
}
