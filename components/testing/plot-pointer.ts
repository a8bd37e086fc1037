/**
 * The run page's turn axis without layout: happy-dom lays nothing out, so a chart's plot area or
 * the brush is given the box a browser would give it, and a pointer is pressed, moved and
 * released at x positions on it (plot-pointer.ts turns those into turns).
 */
import { fireEvent } from "@testing-library/react";
import { vi } from "vitest";
import { PLOT_INSETS } from "@/components/run/plot-insets";

/** Gives `element` a plot `plotWidth` px wide between the axis insets; returns the x of a fraction (0–1) of that plot. */
export function givePlotWidth(element: HTMLElement, plotWidth: number): (fraction: number) => number {
  vi.spyOn(element, "getBoundingClientRect").mockReturnValue({
    left: 0,
    top: 0,
    width: plotWidth + PLOT_INSETS.left + PLOT_INSETS.right,
    height: 100,
  } as DOMRect);
  return (fraction) => PLOT_INSETS.left + fraction * plotWidth;
}

/** A pointer pressed at x `from`, moved and released at x `to` (the same x: a click). */
export function dragAcross(element: HTMLElement, from: number, to: number): void {
  fireEvent.pointerDown(element, { button: 0, clientX: from });
  if (from !== to) fireEvent.pointerMove(element, { clientX: to });
  fireEvent.pointerUp(element, { clientX: to });
}
