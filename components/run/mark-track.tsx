"use client";

import { useState, type KeyboardEvent, type MouseEvent, type ReactNode } from "react";
import styles from "./mark-track.module.css";

/** One mark of a track: what a click or Enter on it does, and the sentence that names it. */
export interface TrackItem {
  /** Unique within the track; the drawn mark carries it as `data-mark`. */
  key: string;
  turn: number;
  title: string;
  activate: () => void;
}

/** How far PageUp / PageDown move along the marks. */
const PAGE = 10;

/**
 * The interactive part of a reminder strip or a lane (docs/architecture.md#run-triage): ONE
 * control, a slider over the track's marks in turn order. Tab reaches it once; ← → (↓ ↑) move to the
 * previous / next mark, PageUp / PageDown ten marks, Home / End the first / last, and the slider's
 * value text says the mark (turn, kind, status); Enter or Space does what a click on it does (select
 * its turn, or zoom to a bucket). The marks themselves are drawn as plain elements with `data-mark`
 * (the caller's children): a click on one is handled here, so no mark is a small target of its own
 * (WCAG 2.5.8: the track is the target, and its marks' actions are all reachable by keyboard).
 */
export function MarkTrack({
  label,
  items,
  selectedTurn,
  className,
  children,
}: {
  label: string;
  /** In turn order. */
  items: readonly TrackItem[];
  selectedTurn: number | null;
  className?: string;
  /** Draws the marks (each with `data-mark` = its item's key); gets the active mark's key to ring it. */
  children: (activeKey: string | null) => ReactNode;
}) {
  const [chosen, setChosen] = useState<string | null>(null);
  const fallback = items.findIndex((item) => selectedTurn !== null && item.turn >= selectedTurn);
  const chosenAt = chosen === null ? -1 : items.findIndex((item) => item.key === chosen);
  const at = chosenAt >= 0 ? chosenAt : fallback >= 0 ? fallback : 0;
  const active = items[at];

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || !items.length) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      active?.activate();
      return;
    }
    const last = items.length - 1;
    const to: Record<string, number> = {
      ArrowRight: Math.min(last, at + 1),
      ArrowUp: Math.min(last, at + 1),
      ArrowLeft: Math.max(0, at - 1),
      ArrowDown: Math.max(0, at - 1),
      PageUp: Math.min(last, at + PAGE),
      PageDown: Math.max(0, at - PAGE),
      Home: 0,
      End: last,
    };
    if (!(event.key in to)) return;
    // Handled here: the page's ← → turn keys (the inspector's) leave a slider alone.
    event.preventDefault();
    setChosen(items[to[event.key]].key);
  };

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const mark = (event.target as HTMLElement).closest<HTMLElement>("[data-mark]");
    const item = mark ? items.find((i) => i.key === mark.dataset.mark) : undefined;
    if (!item) return;
    setChosen(item.key);
    item.activate();
  };

  if (!items.length) {
    return (
      <div className={className} role="group" aria-label={`${label}: none in view`}>
        {children(null)}
      </div>
    );
  }
  return (
    <div
      className={`${className ?? ""} ${styles.track}`}
      role="slider"
      tabIndex={0}
      aria-label={label}
      aria-orientation="horizontal"
      aria-valuemin={1}
      aria-valuemax={items.length}
      aria-valuenow={at + 1}
      aria-valuetext={`${active.title} (${at + 1} of ${items.length}; Enter to open)`}
      aria-keyshortcuts="ArrowLeft ArrowRight Home End Enter"
      data-active-mark={active.key}
      onKeyDown={onKeyDown}
      onClick={onClick}
    >
      {children(active.key)}
    </div>
  );
}
