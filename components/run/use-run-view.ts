"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { parseTurnParam, selectTurnParams, timelineWindow, withViewParams, type TurnWindow } from "@/lib/run-view/turn-window";

/**
 * The run page's view state, which lives in the URL: the selected turn (`?turn=N`) and the zoom
 * window (`?from=&to=`). Changes replace the history entry in place (no scroll, no server
 * round trip: Next's router picks native history.replaceState up and useSearchParams follows), so
 * polling, reloads and shared links keep them and the client fetches only what the view needs.
 */
export function useRunView() {
  const pathname = usePathname();
  const search = useSearchParams();
  const searchText = search.toString();
  const turn = parseTurnParam(search.get("turn"));
  const from = search.get("from");
  const to = search.get("to");
  const zoom = useMemo(() => timelineWindow(from, to), [from, to]);

  const go = useCallback((query: string) => window.history.replaceState(null, "", `${pathname}${query}`), [pathname]);
  const selectTurn = useCallback((next: number) => go(selectTurnParams(searchText, next)), [go, searchText]);
  const clearTurn = useCallback(() => go(withViewParams(searchText, { turn: null })), [go, searchText]);
  const setWindow = useCallback((window: TurnWindow | null) => go(withViewParams(searchText, { window })), [go, searchText]);
  /** Selects a turn and sets the window in one history entry (`window` undefined: keep it). */
  const showTurn = useCallback(
    (next: number, window: TurnWindow | null | undefined) => go(withViewParams(searchText, { turn: next, window })),
    [go, searchText],
  );
  const hrefForTurn = useCallback((next: number) => `${pathname}${selectTurnParams(searchText, next)}`, [pathname, searchText]);

  return { turn, zoom, selectTurn, showTurn, clearTurn, setWindow, hrefForTurn };
}
