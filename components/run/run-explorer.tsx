"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { TurnInspector } from "@/components/inspector/turn-inspector";
import { useHydrated } from "@/components/ui/use-hydrated";
import { runSummaryQuery, runTimelineQuery } from "@/lib/queries/runs";
import { ChartLegend } from "./chart-legend";
import { RunEffectPanel } from "./effect-panel";
import { FindingsView } from "./findings-view";
import { LanesPanel } from "./lanes-panel";
import { NotesLane } from "./notes-lane";
import { NotesPanel } from "./notes-panel";
import { RunReviewsPanel } from "@/components/reviews/run-reviews-panel";
import { RunOtlpPanel } from "./otlp-panel";
import { MeterPanels, type AxisProps } from "./meter-panels";
import { PanelError, PanelSkeleton } from "./panel-state";
import { RunHeader } from "./run-header";
import { RunSearch } from "./run-search";
import { TriageBar } from "./triage-bar";
import { TurnBrush } from "./turn-brush";
import { useTriage } from "./use-triage";
import { useAfterFirstPaint } from "./use-after-first-paint";
import { useRunView } from "./use-run-view";
import { isBehind } from "@/lib/run-view/freshness";
import { projectionHorizon } from "@/lib/run-view/projection-path";
import { turnTicks } from "@/lib/run-view/turn-ticks";
import { axisDomain, windowAround, windowFromDrag } from "@/lib/run-view/turn-window";
import styles from "./run.module.css";

/** How often a live run's header and timeline are fetched again. */
export const LIVE_POLL_MS = 5_000;

/**
 * The run page (client side): header, the four meter charts with their reminder strips, the
 * Reviewer and notification lanes, the findings view, and the turn inspector of the selected turn.
 * View state (turn, zoom window) lives in the URL; a live run is polled without losing it.
 */
/** When the run's figures catch up with its events, its charts are read again at once. */
function useRefetchWhenCaughtUp(behind: boolean, runId: string): void {
  const queryClient = useQueryClient();
  const wasBehind = useRef(behind);
  useEffect(() => {
    if (wasBehind.current && !behind) void queryClient.invalidateQueries({ queryKey: runTimelineQuery(runId).queryKey.slice(0, -1) });
    wasBehind.current = behind;
  }, [behind, runId, queryClient]);
}

export function RunExplorer({ runId }: { runId: string }) {
  const view = useRunView();
  // Marks the page interactive (the charts and handlers run after hydration); tests wait for it.
  const hydrated = useHydrated();
  // Polled while the run is live, and while its rebuilt figures are behind its events (the rebuild
  // runs in the background): the charts follow once it is done.
  const summary = useQuery({
    ...runSummaryQuery(runId),
    refetchInterval: (q) => (q.state.data && (q.state.data.status === "live" || isBehind(q.state.data)) ? LIVE_POLL_MS : false),
  });
  const live = summary.data?.status === "live";
  const behind = summary.data ? isBehind(summary.data) : false;
  const poll = live || behind ? LIVE_POLL_MS : false;
  useRefetchWhenCaughtUp(behind, runId);
  const timeline = useQuery({ ...runTimelineQuery(runId, view.zoom), refetchInterval: poll, placeholderData: keepPreviousData });
  // The whole run (brush backdrop, findings view): the same query as `timeline` when not zoomed.
  const whole = useQuery({ ...runTimelineQuery(runId), refetchInterval: poll });

  const extent = whole.data?.runTurnRange ?? timeline.data?.runTurnRange ?? null;
  const secondary = useAfterFirstPaint(timeline.data !== undefined);
  const zoomed = view.zoom.from !== undefined || view.zoom.to !== undefined;
  const domain = axisDomain(extent, view.zoom);
  // A live run's whole view reaches past its last turn to draw what runs out next (docs/projection.md).
  const projection = live ? (summary.data?.projection ?? null) : null;
  const horizon = !zoomed && extent ? projectionHorizon(projection, extent) : null;
  const chartDomain = horizon !== null && horizon > domain.to ? { from: domain.from, to: horizon } : domain;
  const axis: AxisProps = {
    domain: chartDomain,
    ticks: turnTicks(chartDomain.from, chartDomain.to, 8),
    selectedTurn: view.turn,
    // A click on the projection selects the run's last turn, not a turn that has not happened.
    onSelectTurn: (turn) => view.selectTurn(extent ? Math.min(turn, extent[1]) : turn),
    zoomed,
    onZoom: (a, b) => {
      if (extent) view.setWindow(windowFromDrag(a, b, extent));
    },
  };
  const overview = whole.data?.context?.points ?? whole.data?.requests?.points ?? [];
  // A step of the triage bar or the search selects the turn and, when zoomed, moves the window (same width) to it.
  const goTo = (turn: number) => view.showTurn(turn, zoomed && extent ? windowAround(turn, domain, extent) : undefined);
  const triage = useTriage(runId, view.turn, poll, goTo);

  return (
    <div
      className={`${styles.explorer} ${view.turn !== null ? styles.explorerSheetOpen : ""}`}
      data-hydrated={hydrated ? "true" : undefined}
    >
      {summary.data ? (
        <RunHeader summary={summary.data} polling={live} />
      ) : summary.isError ? (
        <PanelError what="the run" error={summary.error} onRetry={() => summary.refetch()} />
      ) : (
        <PanelSkeleton label="the run" height={96} />
      )}

      <div className={styles.columns}>
        <div className={styles.main}>
          <TriageBar triage={triage.triage.data} message={triage.message} onStep={triage.step} />
          {timeline.data && extent ? (
            <>
              <TurnBrush
                extent={extent}
                domain={domain}
                zoomed={zoomed}
                overview={overview}
                overviewLabel={whole.data?.context ? "bytes of the final request" : "requests used"}
                fetching={timeline.isPlaceholderData}
                downsampled={timeline.data.downsampled}
                maxPoints={timeline.data.maxPoints}
                onWindow={view.setWindow}
              />
              <RunSearch runId={runId} axis={axis} onGo={goTo} poll={poll} />
              <ChartLegend />
              <div className={timeline.isPlaceholderData ? styles.stale : undefined}>
                <MeterPanels
                  timeline={timeline.data}
                  axis={axis}
                  projection={projection}
                  projectionCheck={live ? null : (summary.data?.projectionCheck ?? null)}
                />
              </div>
              {secondary ? <LanesPanel timeline={timeline.data} axis={axis} /> : <PanelSkeleton label="the lanes" height={160} />}
              <NotesLane runId={runId} axis={axis} />
            </>
          ) : timeline.isError ? (
            <PanelError what="the timeline" error={timeline.error} onRetry={() => timeline.refetch()} />
          ) : timeline.data ? (
            <p className={styles.empty}>No turn of this run has been rebuilt yet: the charts appear once a turn has its request.final.</p>
          ) : (
            <>
              <PanelSkeleton label="the turn brush" height={70} />
              <PanelSkeleton label="the requests chart" height={190} />
              <PanelSkeleton label="the time chart" height={170} />
              <PanelSkeleton label="the context chart" height={200} />
              <PanelSkeleton label="the edit quota charts" height={260} />
            </>
          )}

          {whole.data && secondary ? (
            <FindingsView timeline={whole.data} hrefForTurn={view.hrefForTurn} onSelectTurn={view.selectTurn} selectedTurn={view.turn} />
          ) : whole.isError ? (
            <PanelError what="the findings" error={whole.error} onRetry={() => whole.refetch()} />
          ) : (
            <PanelSkeleton label="the findings" height={120} />
          )}

          <NotesPanel runId={runId} />
          <RunReviewsPanel runId={runId} />
          {secondary ? <RunEffectPanel runId={runId} poll={poll} /> : null}
          <RunOtlpPanel runId={runId} poll={poll} />
        </div>

        <aside
          id="turn-inspector"
          className={`${styles.side} ${view.turn !== null ? styles.sideOpen : ""}`}
          aria-label="Selected turn"
          tabIndex={-1}
          onKeyDown={(event) => {
            // Escape inside the inspector closes it (on narrow screens it is a drawer over the page).
            if (event.key === "Escape" && view.turn !== null && !event.defaultPrevented) {
              event.preventDefault();
              view.clearTurn();
            }
          }}
          data-testid="turn-inspector-panel"
        >
          {view.turn !== null ? (
            <div className={styles.inspector}>
              <div className={styles.inspectorBar}>
                <span>Turn inspector</span>
                <button type="button" className={styles.close} onClick={view.clearTurn} aria-label="Close the turn inspector">
                  ✕ close
                </button>
              </div>
              <TurnInspector runId={runId} turn={view.turn} onNavigate={view.selectTurn} />
            </div>
          ) : (
            <div className={styles.hint}>
              <strong>No turn selected.</strong> Click a chart, a reminder mark, a lane or a finding&apos;s turn to inspect that turn: its
              meters, candidates and fitting, and what the agent recorded.
            </div>
          )}
        </aside>
      </div>
    </div>
  );
}
