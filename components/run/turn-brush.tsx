"use client";

import type { TMeterPoint } from "@/lib/contracts";
import { formatNumber, formatTurnRange } from "@/lib/format";
import { PLOT_INSETS } from "./plot-insets";
import { usePlotPointer } from "./plot-pointer";
import { panWindow, turnFraction, windowFromDrag, zoomIn, zoomOut, type TurnWindow } from "@/lib/run-view/turn-window";
import styles from "./brush.module.css";

export interface TurnBrushProps {
  /** The whole run's first and last rebuilt turn. */
  extent: readonly [number, number];
  /** The window the charts show now. */
  domain: TurnWindow;
  zoomed: boolean;
  /** The whole run's context (or requests) series, drawn faintly as the brush's backdrop. */
  overview: readonly TMeterPoint[];
  overviewLabel: string;
  /** Set while the window's timeline is being fetched. */
  fetching: boolean;
  downsampled: boolean;
  maxPoints: number;
  onWindow: (window: TurnWindow | null) => void;
}

/**
 * The brush's keys: ← → move a zoomed window by half its width, + (or =) zooms in around its
 * centre, − zooms out, 0 or Escape shows the whole run. Undefined: not a brush key (or nothing to do).
 */
export function brushKey(
  key: string,
  domain: TurnWindow,
  zoomed: boolean,
  extent: readonly [number, number],
): TurnWindow | null | undefined {
  if (key === "+" || key === "=") return zoomIn(domain, extent);
  if (!zoomed) return undefined;
  if (key === "ArrowLeft") return panWindow(domain, -1, extent);
  if (key === "ArrowRight") return panWindow(domain, 1, extent);
  if (key === "-" || key === "_") return zoomOut(domain, extent);
  if (key === "0" || key === "Escape") return null;
  return undefined;
}

/**
 * The one brush of the page: drag across the whole run to choose the turns every chart, strip and
 * lane shows (kept in the URL as ?from=&to=); the page then fetches that window at full resolution.
 */
export function TurnBrush({ extent, domain, zoomed, overview, overviewLabel, fetching, downsampled, maxPoints, onWindow }: TurnBrushProps) {
  const whole: TurnWindow = extent[1] > extent[0] ? { from: extent[0], to: extent[1] } : { from: extent[0], to: extent[0] + 1 };
  const zoom = (a: number, b: number) => onWindow(windowFromDrag(a, b, extent));
  const recentre = (turn: number) => {
    if (!zoomed) return;
    const half = Math.round((domain.to - domain.from) / 2);
    onWindow(windowFromDrag(turn - half, turn + half, extent));
  };
  const { drag, handlers } = usePlotPointer(whole, recentre, zoom);

  let max = 0;
  for (const p of overview) max = Math.max(max, p.value);
  const path = overview
    .filter((p) => p.turn >= whole.from && p.turn <= whole.to)
    .map((p, i) => `${i ? "L" : "M"}${(turnFraction(p.turn, whole) * 1000).toFixed(1)},${(30 - (max ? p.value / max : 0) * 26).toFixed(1)}`)
    .join("");
  const left = turnFraction(domain.from, whole) * 100;
  const width = (turnFraction(domain.to, whole) - turnFraction(domain.from, whole)) * 100;
  const dragLeft = drag ? turnFraction(Math.min(drag.a, drag.b), whole) * 100 : 0;
  const dragWidth = drag ? (Math.abs(drag.b - drag.a) / (whole.to - whole.from)) * 100 : 0;

  return (
    <section className={styles.brush} aria-labelledby="brush-title">
      <header className={styles.header}>
        <h2 id="brush-title">Turns</h2>
        <span className={styles.window} data-testid="turn-window">
          {zoomed
            ? `showing ${formatTurnRange(domain.from, domain.to)} of ${formatTurnRange(extent[0], extent[1])}`
            : `whole run: ${formatTurnRange(extent[0], extent[1])}`}
          {" · "}
          {downsampled
            ? `series thinned to ≤ ${formatNumber(maxPoints)} points (markers kept); zoom in for every turn`
            : "every turn drawn"}
          {fetching ? " · loading…" : ""}
        </span>
        <span className={styles.buttons}>
          <button
            type="button"
            className={styles.button}
            disabled={!zoomed}
            onClick={() => onWindow(panWindow(domain, -1, extent))}
            aria-label="Earlier turns"
          >
            ◀
          </button>
          <button
            type="button"
            className={styles.button}
            disabled={!zoomed}
            onClick={() => onWindow(panWindow(domain, 1, extent))}
            aria-label="Later turns"
          >
            ▶
          </button>
          <button type="button" className={styles.button} onClick={() => onWindow(zoomIn(domain, extent))} aria-keyshortcuts="+">
            Zoom in
          </button>
          <button
            type="button"
            className={styles.button}
            disabled={!zoomed}
            onClick={() => onWindow(zoomOut(domain, extent))}
            aria-keyshortcuts="-"
          >
            Zoom out
          </button>
          <button type="button" className={styles.button} disabled={!zoomed} onClick={() => onWindow(null)}>
            Whole run
          </button>
        </span>
      </header>
      <div
        className={styles.track}
        style={{ marginLeft: PLOT_INSETS.left, marginRight: PLOT_INSETS.right }}
        role="slider"
        aria-label={`Zoom window over the run's turns; drag to choose turns (backdrop: ${overviewLabel})`}
        aria-valuemin={extent[0]}
        aria-valuemax={extent[1]}
        aria-valuenow={domain.from}
        aria-valuetext={formatTurnRange(domain.from, domain.to)}
        tabIndex={0}
        aria-keyshortcuts="ArrowLeft ArrowRight + - 0"
        onKeyDown={(event) => {
          const next = brushKey(event.key, domain, zoomed, extent);
          if (next === undefined) return;
          event.preventDefault();
          onWindow(next);
        }}
        data-testid="turn-brush"
        {...handlers}
      >
        <svg className={styles.backdrop} viewBox="0 0 1000 32" preserveAspectRatio="none" aria-hidden="true">
          <path d={path} />
        </svg>
        {zoomed ? (
          <>
            <span className={styles.shade} style={{ left: 0, width: `${left}%` }} />
            <span className={styles.shade} style={{ left: `${left + width}%`, right: 0 }} />
            <span className={styles.selection} style={{ left: `${left}%`, width: `${width}%` }} />
          </>
        ) : null}
        {drag ? <span className={styles.dragging} style={{ left: `${dragLeft}%`, width: `${dragWidth}%` }} /> : null}
      </div>
      <div className={styles.scale} style={{ marginLeft: PLOT_INSETS.left, marginRight: PLOT_INSETS.right }} aria-hidden="true">
        <span>{formatNumber(extent[0])}</span>
        <span className={styles.scaleHint}>
          drag here or across any chart to zoom · keys on this bar: ← → move, + − zoom, 0 whole run · click a chart or a mark to select a
          turn
        </span>
        <span>{formatNumber(extent[1])}</span>
      </div>
    </section>
  );
}
