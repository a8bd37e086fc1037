import type { Alignment } from "./overlay";

/** The comparison page's URL: the runs, the selected turn and the alignment (its default, by turn, left out). Shareable as it is. */
export function compareUrl({
  a,
  b,
  turn = null,
  alignment = "turn",
}: {
  a: string;
  b: string;
  turn?: number | null;
  alignment?: Alignment;
}): string {
  const query = new URLSearchParams({ a, b });
  if (turn !== null) query.set("turn", String(turn));
  if (alignment !== "turn") query.set("align", alignment);
  return `/compare?${query}`;
}

/** The runs ticked for comparison after ticking or unticking `runId`: at most two, a third tick lets the first go. */
export function toggledPair(chosen: readonly string[], runId: string): string[] {
  if (chosen.includes(runId)) return chosen.filter((id) => id !== runId);
  return [...chosen, runId].slice(-2);
}
