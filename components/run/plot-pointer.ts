"use client";

import { useRef, useState, type PointerEvent } from "react";
import { PLOT_INSETS } from "./plot-insets";
import { turnAtFraction, type TurnWindow } from "@/lib/run-view/turn-window";

/** A drag shorter than this (px) is a click. */
const CLICK_SLOP = 4;

/**
 * Pointer handling shared by every chart of the turn axis: a click selects the turn under the
 * pointer (on a chart with a tooltip, the turn the tooltip shows); a drag across the plot selects a zoom window (Grafana style). Turns come from the
 * pointer's x within the plot insets, so thinned series and sparse block charts pick the same
 * turn as the strips below them.
 */
export function usePlotPointer(
  domain: TurnWindow,
  onSelectTurn: (turn: number) => void,
  onZoom: (a: number, b: number) => void,
  /** The turn a chart's tooltip shows now, if any: a click selects it (so tooltip and click agree). */
  shownTurn?: () => number | null,
) {
  const start = useRef<{ x: number; turn: number } | null>(null);
  const [drag, setDrag] = useState<{ a: number; b: number } | null>(null);

  const turnAt = (event: PointerEvent<HTMLElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    const width = rect.width - PLOT_INSETS.left - PLOT_INSETS.right;
    return turnAtFraction((event.clientX - rect.left - PLOT_INSETS.left) / Math.max(1, width), domain);
  };

  return {
    drag,
    handlers: {
      onPointerDown(event: PointerEvent<HTMLElement>) {
        if (event.button !== 0) return;
        start.current = { x: event.clientX, turn: turnAt(event) };
      },
      onPointerMove(event: PointerEvent<HTMLElement>) {
        if (!start.current || Math.abs(event.clientX - start.current.x) < CLICK_SLOP) return;
        setDrag({ a: start.current.turn, b: turnAt(event) });
      },
      onPointerUp(event: PointerEvent<HTMLElement>) {
        const begun = start.current;
        start.current = null;
        setDrag(null);
        if (!begun) return;
        const turn = turnAt(event);
        if (Math.abs(event.clientX - begun.x) < CLICK_SLOP) onSelectTurn(shownTurn?.() ?? turn);
        else onZoom(begun.turn, turn);
      },
      onPointerLeave() {
        start.current = null;
        setDrag(null);
      },
    },
  };
}
