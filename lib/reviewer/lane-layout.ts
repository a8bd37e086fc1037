import type { TReviewerLane } from "@/lib/contracts";
import { formatCount, formatTurn, formatTurnRange } from "@/lib/format";
import type { LaneMark } from "@/lib/run-view/lane-marks";
import { turnFraction, type TurnWindow } from "@/lib/run-view/turn-window";
import { chainExtent } from "@/lib/derived/reviewer/lane";
import { cancelReasonLabel, denialLabel } from "./reasons";

/** A dispatch running from `turn` to `toTurn` (open = still running at the end of the window). */
export interface LaneSpan {
  id: string;
  turn: number;
  x1: number;
  x2: number;
  row: number;
  open: boolean;
  title: string;
}

export interface ReviewerLayout {
  /** What the rules say (R13): the rebuild's candidates with their admission, one row. */
  rebuilt: LaneMark[];
  /** What was recorded: each chain on a row, packed so chains do not overlap. */
  recorded: { marks: LaneMark[]; spans: LaneSpan[]; rows: number };
  /** Counts for the lane's caption. */
  counts: { rebuilt: number; denied: number; chains: number; dispatches: number; running: number; cancelled: number };
}

/**
 * Greedy interval packing: each interval (in turn order of its start) goes on the first row whose
 * last interval ended more than `gap` turns before it; at most `maxRows` rows (then the row that
 * frees first). Returns the row of each interval, in input order, and the number of rows used.
 */
export function packRows(intervals: readonly (readonly [number, number])[], gap: number, maxRows = 4): { rows: number[]; count: number } {
  const order = intervals.map((_, i) => i).sort((a, b) => intervals[a][0] - intervals[b][0] || a - b);
  const ends: number[] = [];
  const rows = new Array<number>(intervals.length).fill(0);
  for (const i of order) {
    const [start, end] = intervals[i];
    let row = ends.findIndex((e) => start > e + gap);
    if (row === -1) {
      if (ends.length < maxRows) row = ends.length;
      else row = ends.indexOf(Math.min(...ends));
    }
    ends[row] = Math.max(ends[row] ?? Number.NEGATIVE_INFINITY, end);
    rows[i] = row;
  }
  return { rows, count: Math.max(1, ends.length) };
}

/**
 * The Reviewer lane for a window: rebuilt candidates (rules) on one row, recorded chains
 * (candidate → admission → dispatch span → completion, or cancellation) packed on rows below.
 * Kept apart from reminders and notifications (R12).
 */
export function reviewerLayout(lane: TReviewerLane, domain: TurnWindow): ReviewerLayout {
  const x = (turn: number) => Math.min(1, Math.max(0, turnFraction(turn, domain)));
  const inside = (turn: number) => turn >= domain.from && turn <= domain.to;

  const rebuilt: LaneMark[] = lane.rebuilt
    .filter((r) => inside(r.turn))
    .map((r) => ({
      id: `r${r.turn}${r.granted ? "" : "d"}`,
      turn: r.turn,
      x: x(r.turn),
      row: 0,
      glyph: r.granted ? "granted" : "denied",
      title:
        r.count === undefined
          ? `${formatTurn(r.turn)} · rules: Reviewer candidate, checkpoint ${r.checkpoint} · admission ${
              r.granted ? "granted" : `denied: ${r.reasons.map(denialLabel).join(", ")}`
            }`
          : `${formatTurnRange(r.turn, r.toTurn ?? r.turn)} · rules: ${formatCount(r.count, "Reviewer candidate")} from checkpoint ${r.checkpoint} · admission ${
              r.granted ? "granted" : `denied: ${r.reasons.map(denialLabel).join(", ")}`
            } · zoom in for each`,
    }));
  const folded = foldedChains(lane, domain, x);
  if (folded) {
    return {
      rebuilt,
      recorded: folded.recorded,
      counts: { ...rebuiltCounts(lane), ...folded.counts },
    };
  }

  const extents = lane.chains.map((chain): [number, number] => {
    const [first, last] = chainExtent(chain, domain.to);
    return first <= last ? [first, last] : [domain.from, domain.from];
  });
  const packed = packRows(extents, (domain.to - domain.from) * 0.012);
  const marks: LaneMark[] = [];
  const spans: LaneSpan[] = [];
  let dispatches = 0;
  let running = 0;
  let cancelled = 0;
  lane.chains.forEach((chain, c) => {
    const row = packed.rows[c];
    const name = `candidate ${chain.candidateId}`;
    if (chain.turn !== null && inside(chain.turn)) {
      marks.push({
        id: `c${c}`,
        turn: chain.turn,
        x: x(chain.turn),
        row,
        glyph: "candidate",
        title: `${formatTurn(chain.turn)} · recorded: Reviewer ${name}${chain.checkpoint !== null ? `, checkpoint ${chain.checkpoint}` : ""}`,
      });
    }
    chain.admissions.forEach((a, i) => {
      if (!inside(a.turn)) return;
      marks.push({
        id: `c${c}a${i}`,
        turn: a.turn,
        x: x(a.turn),
        row,
        glyph: a.granted ? "granted" : "denied",
        title: `${formatTurn(a.turn)} · recorded admission for ${name}: ${a.granted ? "granted" : `denied${a.reasons.length ? `: ${a.reasons.map(denialLabel).join(", ")}` : ""}`}`,
      });
    });
    chain.dispatches.forEach((d, i) => {
      dispatches++;
      const end = d.doneTurn ?? domain.to;
      if (d.doneTurn === null) running++;
      if (end < domain.from || d.turn > domain.to) return;
      spans.push({
        id: `c${c}s${i}`,
        turn: d.turn,
        x1: x(d.turn),
        x2: x(end),
        row,
        open: d.doneTurn === null,
        title: `${d.doneTurn === null ? `${formatTurn(d.turn)} onwards` : formatTurnRange(d.turn, d.doneTurn)} · dispatch ${d.dispatchId} of ${name} ${
          d.doneTurn === null ? "still running" : `completed${d.verdict ? ` (${d.verdict})` : ""}`
        }`,
      });
      if (inside(d.turn))
        marks.push({
          id: `c${c}d${i}`,
          turn: d.turn,
          x: x(d.turn),
          row,
          glyph: "dispatch",
          title: `${formatTurn(d.turn)} · dispatched ${d.dispatchId} for ${name}`,
        });
      if (d.doneTurn !== null && inside(d.doneTurn)) {
        marks.push({
          id: `c${c}f${i}`,
          turn: d.doneTurn,
          x: x(d.doneTurn),
          row,
          glyph: "done",
          title: `${formatTurn(d.doneTurn)} · dispatch ${d.dispatchId} completed${d.verdict ? `: ${d.verdict}` : ""}`,
        });
      }
    });
    if (chain.cancelled) {
      cancelled++;
      if (inside(chain.cancelled.turn)) {
        marks.push({
          id: `c${c}x`,
          turn: chain.cancelled.turn,
          x: x(chain.cancelled.turn),
          row,
          glyph: "cancelled",
          title: `${formatTurn(chain.cancelled.turn)} · ${name} cancelled: ${cancelReasonLabel(chain.cancelled.reason)}`,
        });
      }
    }
  });
  return {
    rebuilt,
    recorded: { marks, spans, rows: packed.count },
    counts: {
      ...rebuiltCounts(lane),
      chains: lane.chains.length,
      dispatches,
      running,
      cancelled,
    },
  };
}

/** How many candidates the rules made and denied (a folded item counts what it stands for). */
function rebuiltCounts(lane: TReviewerLane): { rebuilt: number; denied: number } {
  let rebuilt = 0;
  let denied = 0;
  for (const r of lane.rebuilt) {
    rebuilt += r.count ?? 1;
    if (!r.granted) denied += r.count ?? 1;
  }
  return { rebuilt, denied };
}

/** Recorded chains counted per bucket (a folded lane): one span and mark per bucket, on one row. */
function foldedChains(lane: TReviewerLane, domain: TurnWindow, x: (turn: number) => number) {
  if (!lane.chainBuckets?.length) return null;
  const marks: LaneMark[] = [];
  const spans: LaneSpan[] = [];
  const counts = { chains: 0, dispatches: 0, running: 0, cancelled: 0 };
  lane.chainBuckets.forEach((bucket, i) => {
    counts.chains += bucket.chains;
    counts.dispatches += bucket.dispatches;
    counts.running += bucket.running;
    counts.cancelled += bucket.cancelled;
    if (bucket.toTurn < domain.from || bucket.turn > domain.to) return;
    const title = `${formatTurnRange(bucket.turn, bucket.toTurn)} · recorded: ${formatCount(bucket.chains, "Reviewer chain")}, ${formatCount(
      bucket.granted,
      "admission",
    )} granted, ${bucket.denied} denied, ${formatCount(bucket.dispatches, "dispatch", "dispatches")}${bucket.running ? ` (${bucket.running} running)` : ""}${
      bucket.cancelled ? `, ${bucket.cancelled} cancelled` : ""
    } · zoom in for each`;
    spans.push({ id: `b${i}s`, turn: bucket.turn, x1: x(bucket.turn), x2: x(bucket.toTurn), row: 0, open: bucket.running > 0, title });
    marks.push({ id: `b${i}`, turn: bucket.turn, x: x(bucket.turn), row: 0, glyph: "candidate", title });
  });
  return { recorded: { marks, spans, rows: 1 }, counts };
}
