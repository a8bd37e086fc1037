"use client";

import { useCallback, useLayoutEffect, useRef, type FocusEvent, type KeyboardEvent } from "react";

/** The marks of a track, in turn order (marks of one turn in drawing order). */
function marksOf(track: HTMLElement | null): HTMLButtonElement[] {
  if (!track) return [];
  return Array.from(track.querySelectorAll<HTMLButtonElement>("button[data-turn]")).sort(
    (a, b) => Number(a.dataset.turn) - Number(b.dataset.turn),
  );
}

/**
 * One tab stop per strip or lane (WAI-ARIA toolbar pattern, docs/architecture.md#run-triage):
 * the marks of the track are reached with Tab once, then ← → (or ↑ ↓) move between them in turn
 * order, Home and End go to the first and last. The tab stop is the mark last focused, else the
 * first mark at or after the selected turn. The tab indexes are set on the rendered buttons (marks
 * need `data-turn`) after each render, so the marks themselves stay plain buttons.
 */
export function useRovingTrack(selectedTurn: number | null) {
  const ref = useRef<HTMLDivElement>(null);
  const last = useRef<string | null>(null);

  useLayoutEffect(() => {
    const marks = marksOf(ref.current);
    if (!marks.length) return;
    const stop =
      marks.find((m) => m === document.activeElement) ??
      (last.current !== null ? marks.find((m) => m.dataset.mark === last.current) : undefined) ??
      marks.find((m) => selectedTurn !== null && Number(m.dataset.turn) >= selectedTurn) ??
      marks[0];
    for (const m of marks) m.tabIndex = m === stop ? 0 : -1;
  });

  const onFocus = useCallback((event: FocusEvent<HTMLElement>) => {
    const target = event.target;
    if (!(target instanceof HTMLButtonElement) || target.dataset.turn === undefined) return;
    last.current = target.dataset.mark ?? null;
    for (const m of marksOf(ref.current)) m.tabIndex = m === target ? 0 : -1;
  }, []);

  const onKeyDown = useCallback((event: KeyboardEvent<HTMLElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const marks = marksOf(ref.current);
    const at = marks.indexOf(event.target as HTMLButtonElement);
    if (at < 0) return;
    const next =
      event.key === "ArrowRight" || event.key === "ArrowDown"
        ? Math.min(marks.length - 1, at + 1)
        : event.key === "ArrowLeft" || event.key === "ArrowUp"
          ? Math.max(0, at - 1)
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? marks.length - 1
              : null;
    if (next === null) return;
    // Handled here: the page's ← → turn keys (the inspector's) leave it alone.
    event.preventDefault();
    marks[next].focus();
  }, []);

  return { ref, onFocus, onKeyDown };
}
