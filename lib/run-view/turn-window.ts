/**
 * The shared turn axis of the run page: the window of turns every chart, strip and lane draws
 * ([from, to], inclusive), how it lives in the URL (`?from=&to=`), and the brush's pixel ⇄ turn
 * arithmetic. Pure functions only.
 */

/** An inclusive range of turns. */
export interface TurnWindow {
  from: number;
  to: number;
}

/** The smallest window a zoom may make (turns, inclusive span − 1); a narrower drag is widened around its centre. */
export const MIN_WINDOW_SPAN = 4;

function wholeTurn(text: string | null | undefined): number | undefined {
  if (text === null || text === undefined || !/^\d{1,9}$/.test(text)) return undefined;
  return Number(text);
}

/** `?turn=N` → N, or null when absent or not a turn number. */
export function parseTurnParam(text: string | null | undefined): number | null {
  return wholeTurn(text) ?? null;
}

/**
 * `?from=&to=` → the zoom window, or null (the whole run). A one-sided or reversed pair is read
 * as far as it makes sense (missing side = open); it is not clamped here, as the run's extent may
 * not be known yet.
 */
export function parseWindowParams(from: string | null | undefined, to: string | null | undefined): { from?: number; to?: number } | null {
  const f = wholeTurn(from);
  const t = wholeTurn(to);
  if (f === undefined && t === undefined) return null;
  if (f !== undefined && t !== undefined && f > t) return { from: t, to: f };
  return { ...(f !== undefined ? { from: f } : {}), ...(t !== undefined ? { to: t } : {}) };
}

/** The axis domain: the zoom window inside the run's extent, else the extent; widened when it holds one turn. */
export function axisDomain(extent: readonly [number, number] | null, zoom: { from?: number; to?: number } | null): TurnWindow {
  const [first, last] = extent ?? [0, 0];
  const from = Math.max(first, Math.min(zoom?.from ?? first, last));
  const to = Math.min(last, Math.max(zoom?.to ?? last, from));
  return to > from ? { from, to } : { from: Math.max(0, from - 1), to: from + 1 };
}

/** Where a turn sits on the axis, as a fraction 0…1 of the plot width (outside the domain: < 0 or > 1). */
export function turnFraction(turn: number, domain: TurnWindow): number {
  return (turn - domain.from) / (domain.to - domain.from);
}

/** The turn under a fraction 0…1 of the plot width (rounded to a whole turn, clamped to the domain). */
export function turnAtFraction(fraction: number, domain: TurnWindow): number {
  const clamped = Math.min(1, Math.max(0, fraction));
  return Math.round(domain.from + clamped * (domain.to - domain.from));
}

/**
 * The window a drag from turn `a` to turn `b` selects (either direction), clamped to the run's
 * extent and at least MIN_WINDOW_SPAN wide (widened around its centre, then shifted inside the
 * extent). Null when the drag covers the whole extent (= no zoom).
 */
export function windowFromDrag(a: number, b: number, extent: readonly [number, number]): TurnWindow | null {
  const [first, last] = extent;
  let from = Math.max(first, Math.min(a, b));
  let to = Math.min(last, Math.max(a, b));
  if (to - from < MIN_WINDOW_SPAN) {
    const centre = (from + to) / 2;
    from = Math.round(centre - MIN_WINDOW_SPAN / 2);
    to = from + MIN_WINDOW_SPAN;
    if (from < first) [from, to] = [first, first + MIN_WINDOW_SPAN];
    if (to > last) [from, to] = [Math.max(first, last - MIN_WINDOW_SPAN), last];
  }
  return from <= first && to >= last ? null : { from, to };
}

/** Twice as wide around the same centre, inside the extent; null once it covers the whole run. */
export function zoomOut(window: TurnWindow, extent: readonly [number, number]): TurnWindow | null {
  const span = window.to - window.from;
  const centre = (window.from + window.to) / 2;
  return windowFromDrag(Math.floor(centre - span), Math.ceil(centre + span), extent);
}

/** The same width moved by `direction` × half its span, inside the extent. */
export function panWindow(window: TurnWindow, direction: -1 | 1, extent: readonly [number, number]): TurnWindow | null {
  const span = window.to - window.from;
  const shift = direction * Math.max(1, Math.round(span / 2));
  let from = window.from + shift;
  let to = window.to + shift;
  if (from < extent[0]) [from, to] = [extent[0], extent[0] + span];
  if (to > extent[1]) [from, to] = [extent[1] - span, extent[1]];
  return windowFromDrag(from, to, extent);
}

/** Half as wide around the same centre (at least MIN_WINDOW_SPAN): the keyboard's zoom in. */
export function zoomIn(window: TurnWindow, extent: readonly [number, number]): TurnWindow | null {
  const span = window.to - window.from;
  const centre = (window.from + window.to) / 2;
  return windowFromDrag(Math.round(centre - span / 4), Math.round(centre + span / 4), extent);
}

/**
 * The window that shows `turn`: `window` itself when the turn is inside it (or there is no zoom),
 * else the same width centred on the turn, inside the extent. Stepping to the next dropped
 * reminder keeps the zoom the reader chose instead of falling back to the whole run.
 */
export function windowAround(turn: number, window: TurnWindow | null, extent: readonly [number, number]): TurnWindow | null {
  if (!window || (window.from <= turn && turn <= window.to)) return window;
  const span = window.to - window.from;
  let from = Math.round(turn - span / 2);
  let to = from + span;
  if (from < extent[0]) [from, to] = [extent[0], extent[0] + span];
  if (to > extent[1]) [from, to] = [Math.max(extent[0], extent[1] - span), extent[1]];
  return windowFromDrag(from, to, extent);
}

/**
 * The run page's search string after a change of selection or window; other parameters are
 * kept. `window: null` removes the zoom; `turn: null` removes the selection; undefined = keep.
 */
export function withViewParams(current: string, change: { turn?: number | null; window?: TurnWindow | null }): string {
  const params = new URLSearchParams(current);
  if (change.turn !== undefined) {
    if (change.turn === null) params.delete("turn");
    else params.set("turn", String(change.turn));
  }
  if (change.window !== undefined) {
    if (change.window === null) {
      params.delete("from");
      params.delete("to");
    } else {
      params.set("from", String(change.window.from));
      params.set("to", String(change.window.to));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * Selecting a turn (e.g. from a finding's link): keep the zoom if the turn is inside it, else
 * leave the zoom so the charts show the turn.
 */
export function selectTurnParams(current: string, turn: number): string {
  const params = new URLSearchParams(current);
  const zoom = parseWindowParams(params.get("from"), params.get("to"));
  const inside = !zoom || ((zoom.from ?? 0) <= turn && turn <= (zoom.to ?? Number.POSITIVE_INFINITY));
  return withViewParams(current, inside ? { turn } : { turn, window: null });
}

/** The timeline query's window from the URL's `from`/`to` (server prefetch and client agree on the key). */
export function timelineWindow(from: string | null | undefined, to: string | null | undefined): { from?: number; to?: number } {
  return parseWindowParams(from, to) ?? {};
}

/**
 * The absolute link to a turn of the run page as it is viewed now: the page's origin and path, its
 * query with `turn` set and every other view parameter (the zoom window `from`/`to`, a dot run id's
 * `runId`) kept as it is, so the link opens the same turn at the same zoom.
 */
export function turnShareUrl(origin: string, pathname: string, search: string, turn: number): string {
  return `${origin}${pathname}${withViewParams(search.replace(/^\?/, ""), { turn })}`;
}
