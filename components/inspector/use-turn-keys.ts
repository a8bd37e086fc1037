"use client";

import { useEffect, useRef } from "react";
import { turnForKey } from "@/lib/inspector/turn-keys";
import { keyPressOf } from "@/lib/keys/key-press";

/**
 * ← → move to the previous / next existing turn, anywhere on the page except while typing (or on
 * a control that uses its own arrow keys). One listener for the component's life; it always reads
 * the latest neighbours and callback.
 */
export function useTurnKeys(previousTurn: number | null, nextTurn: number | null, onNavigate: (turn: number) => void): void {
  const latest = useRef({ previousTurn, nextTurn, onNavigate });
  useEffect(() => {
    latest.current = { previousTurn, nextTurn, onNavigate };
  });

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const { previousTurn: prev, nextTurn: next, onNavigate: go } = latest.current;
      const turn = turnForKey(keyPressOf(event), prev, next);
      if (turn === null) return;
      event.preventDefault();
      go(turn);
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}
