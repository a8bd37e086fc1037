"use client";

import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { previewTurns } from "@/lib/copy/preview-turns";
import { runSummaryQuery, runTimelineQuery, turnDetailQuery } from "@/lib/queries/runs";

export interface PreviewTarget {
  runId: string | null;
  turn: number | null;
}

/**
 * The recorded turn the copy editor previews on: kept in the URL (`run`, `turn`) so a preview can
 * be shared, without a server round trip. Choosing a run starts on its most telling turn (a dropped
 * context notice, else any drop, else any reminder).
 */
export function usePreviewTurn(initial: PreviewTarget) {
  const [target, setTarget] = useState<PreviewTarget>(initial);
  const { runId, turn } = target;

  const summary = useQuery({ ...runSummaryQuery(runId ?? ""), enabled: runId !== null });
  const timeline = useQuery({ ...runTimelineQuery(runId ?? ""), enabled: runId !== null, staleTime: 60_000 });
  const choices = useMemo(() => (timeline.data ? previewTurns(timeline.data) : null), [timeline.data]);
  const effectiveTurn = turn ?? choices?.suggested ?? null;
  const detail = useQuery({ ...turnDetailQuery(runId ?? "", effectiveTurn ?? 0), enabled: runId !== null && effectiveTurn !== null });

  useEffect(() => {
    const url = new URL(window.location.href);
    if (runId) url.searchParams.set("run", runId);
    else url.searchParams.delete("run");
    if (effectiveTurn !== null) url.searchParams.set("turn", String(effectiveTurn));
    else url.searchParams.delete("turn");
    if (url.href !== window.location.href) window.history.replaceState(null, "", url);
  }, [runId, effectiveTurn]);

  const chooseRun = useCallback((next: string | null) => setTarget({ runId: next, turn: null }), []);
  const chooseTurn = useCallback((next: number) => setTarget((t) => ({ ...t, turn: Math.max(0, next) })), []);

  return { runId, turn: effectiveTurn, summary, timeline, detail, choices, chooseRun, chooseTurn };
}

export type PreviewTurnState = ReturnType<typeof usePreviewTurn>;
