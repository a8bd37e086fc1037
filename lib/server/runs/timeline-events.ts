import type { TEvent } from "@/lib/contracts";
import {
  keysToFollow,
  longChainsOverlapping,
  REVIEWER_LANE_EVENT_TYPES,
  reviewerEventsForWindow,
  SHORT_CHAIN_TURNS,
  type TReviewerSpan,
} from "@/lib/derived/reviewer/window-events";
import type { Database } from "@/lib/server/db";
import { eventColumns } from "@/lib/server/db/json-columns";

type RunKey = { projectId: string; id: string; runId: string };

/** The window and what the stored rebuild says about the run (read with the window's chunks). */
export interface TimelineWindow {
  from: number;
  to: number;
  /** The run's last rebuilt turn (0 without turns): where an open dispatch ends. */
  end: number;
  /** The highest events.seq the stored rebuild included: later events are new to it. */
  maxSeq: string;
  /** Whether the run has events the stored rebuild did not include (its event count is behind the run's). */
  stale: boolean;
  /** run_decisions.reviewer_spans: the run's long chains as JSON text; null on rows stored before. */
  reviewerSpans: string | null;
}

/** What a window's read of the events took. */
export interface WindowEventsRead {
  events: TEvent[];
  /** Event rows read (bodies parsed): the window's, the run.started, the Reviewer events near the window and of the chains reached. */
  bodyRows: number;
  /** Statements run. */
  statements: number;
}

/** The timeline's events of a window's turns that are not the Reviewer lane's. */
const WINDOW_TYPES = ["context.compaction", "user.notified"];

const inList = (types: readonly string[]) => types.map((type) => `'${type}'`).join(", ");
/** The partial indexes' predicates (prisma/migrations/20261225000000…, 20261225000100…), written as they are. */
const REVIEWER = `"type" IN (${inList(REVIEWER_LANE_EVENT_TYPES)})`;
const WITH_CANDIDATE = `"type" IN (${inList(["reviewer.candidate", "reviewer.admission", "reviewer.dispatched", "reviewer.cancelled"])})`;
const WITH_DISPATCH = `"type" IN (${inList(["reviewer.dispatched", "reviewer.completed"])})`;
const OF_RUN = `"project_id" = $1 AND "run_pk" = $2`;

/**
 * Rows come back as ONE JSON text per statement part (json_agg), parsed by JSON.parse: a row per
 * event through the driver costs about 30 µs, far more than the query (PGlite especially).
 */
const BODY_ROWS = `coalesce(json_agg(json_build_array("seq"::text, "event_id", "type", "ts", "turn", "body"))::text, '[]')`;

type BodyRow = [seq: string, eventId: string, type: string, ts: string, turn: number | null, body: unknown];

/**
 * The events the timeline of a window of turns needs, equal in what buildTimeline makes of them to
 * all of the run's TIMELINE_EVENT_TYPES (lib/derived/timeline): the run.started (the policy), the compactions
 * and notifications of the window's turns, and the Reviewer events of the chains that touch or span
 * the window (lib/derived/reviewer/window-events.ts), each found through an index; no event of a turn or a
 * chain far from the window is read:
 *
 * 1. one statement: the window's compactions and notifications (by turn), the run.started, the
 *    Reviewer events within SHORT_CHAIN_TURNS turns of the window, and (when the rebuild is stale)
 *    those that arrived after it (seq > its max_seq: as many as it is stale by);
 * 2. the stored long chains that overlap the window, and the chains of the Reviewer events read,
 *    followed by candidateId and dispatchId (partial expression indexes) until no new key turns up
 *    (usually one statement): every event of every chain reached, and of every dispatchId;
 * 3. of those, the events of the chains the window shows (reviewerEventsForWindow, pure).
 *
 * A row stored before reviewer_spans existed reads all of the run's Reviewer events instead.
 */
export async function loadWindowTimelineEvents(db: Database, run: RunKey, window: TimelineWindow): Promise<WindowEventsRead> {
  const { from, to, end, maxSeq } = window;
  const spans = window.reviewerSpans === null ? null : (JSON.parse(window.reviewerSpans) as TReviewerSpan[]);
  const clamp = (turn: number) => Math.min(Math.max(turn, -(2 ** 31)), 2 ** 31 - 1);
  const [first] = await db.prisma.$queryRawUnsafe<{ window: string; near: string; fresh: string }[]>(
    `SELECT (SELECT ${BODY_ROWS} FROM (
              SELECT * FROM "events" WHERE ${OF_RUN} AND "turn" BETWEEN $3 AND $4 AND "type" = ANY($5::text[])
              UNION ALL
              SELECT * FROM "events" WHERE ${OF_RUN} AND "type" = 'run.started') AS "w") AS "window",
            (SELECT ${BODY_ROWS} FROM "events" WHERE ${OF_RUN} AND ${REVIEWER} AND "turn" BETWEEN $6 AND $7) AS "near",
            ${window.stale ? `(SELECT ${BODY_ROWS} FROM "events" WHERE ${OF_RUN} AND "seq" > $8::bigint AND ${REVIEWER})` : "'[]'"} AS "fresh"`,
    run.projectId,
    run.id,
    clamp(from),
    clamp(to),
    WINDOW_TYPES,
    // Without stored long chains, every Reviewer event of the run.
    spans === null ? -(2 ** 31) : clamp(from - SHORT_CHAIN_TURNS),
    spans === null ? 2 ** 31 - 1 : clamp(to + SHORT_CHAIN_TURNS),
    // The Reviewer events since the rebuild, when there are any (by seq, the rebuild's max_seq on).
    ...(window.stale ? [maxSeq] : []),
  );
  let statements = 1;
  const reviewer = new Map<string, TEvent>();
  const add = (rows: BodyRow[]) => {
    const added: TEvent[] = [];
    for (const row of rows) {
      if (reviewer.has(row[0])) continue;
      const event = eventOf(row, run.runId);
      reviewer.set(row[0], event);
      added.push(event);
    }
    return added;
  };
  add(JSON.parse(first.near) as BodyRow[]);
  add(JSON.parse(first.fresh) as BodyRow[]);

  if (spans !== null) {
    // Follow the chains reached to their other events, wherever they are in the run: one index
    // lookup per key (a lateral subquery kept apart by OFFSET 0, so that the plan holds without
    // statistics too: PGlite has no autovacuum, and a flattened join scanned the run's Reviewer events).
    const known = { candidateIds: new Set<string>(), dispatchIds: new Set<string>() };
    let follow = keysToFollow([...reviewer.values()], known);
    follow.candidateIds.push(...longChainsOverlapping(spans, from, to).filter((id) => !follow.candidateIds.includes(id)));
    while (follow.candidateIds.length > 0 || follow.dispatchIds.length > 0) {
      for (const id of follow.candidateIds) known.candidateIds.add(id);
      for (const id of follow.dispatchIds) known.dispatchIds.add(id);
      const [more] = await db.prisma.$queryRawUnsafe<{ chained: string }[]>(
        `SELECT (SELECT ${BODY_ROWS} FROM (
                  SELECT e.* FROM unnest($3::text[]) AS k("id") CROSS JOIN LATERAL (
                    SELECT * FROM "events" WHERE ${OF_RUN} AND ${WITH_CANDIDATE} AND "body" ->> 'candidateId' = k."id" OFFSET 0) AS e
                  UNION ALL
                  SELECT e.* FROM unnest($4::text[]) AS k("id") CROSS JOIN LATERAL (
                    SELECT * FROM "events" WHERE ${OF_RUN} AND ${WITH_DISPATCH} AND "body" ->> 'dispatchId' = k."id" OFFSET 0) AS e) AS "c") AS "chained"`,
        run.projectId,
        run.id,
        follow.candidateIds,
        follow.dispatchIds,
      );
      statements++;
      follow = keysToFollow(add(JSON.parse(more.chained) as BodyRow[]), known);
    }
  }

  const windowEvents = (JSON.parse(first.window) as BodyRow[]).map((row) => eventOf(row, run.runId));
  const chosen = reviewerEventsForWindow([...reviewer.values()], from, to, end);
  return { events: [...windowEvents, ...chosen], bodyRows: windowEvents.length + reviewer.size, statements };
}

function eventOf([seq, eventId, type, ts, turn, body]: BodyRow, runId: string): TEvent {
  return eventColumns({ seq, eventId, type, ts, turn, body }, runId);
}
