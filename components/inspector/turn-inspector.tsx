"use client";

/**
 * The turn inspector (placeholder until the inspector is built): the run page renders it with the
 * selected turn and moves between turns through `onNavigate`.
 */
export interface TurnInspectorProps {
  runId: string;
  turn: number;
  /** Asks the page to select another turn (← → keys, prev/next buttons). */
  onNavigate: (turn: number) => void;
}

export function TurnInspector({ turn }: TurnInspectorProps) {
  return <aside aria-label={`Turn ${turn}`}>Turn {turn}</aside>;
}
