import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { RunExplorer } from "@/components/run/run-explorer";
import { parseTurnParam, timelineWindow } from "@/lib/run-view/turn-window";
import { preload } from "react-dom";
import { TRIAGE_KINDS, ZRunIdParam } from "@/lib/contracts";
import { runIdFromRoute, runPath } from "@/lib/queries/paths";
import { commentedTurnsQuery, commentsQuery } from "@/lib/queries/comments";
import { runOtlpRecordsQuery } from "@/lib/queries/otlp";
import { runReviewsQuery } from "@/lib/queries/reviews";
import { runEffectivenessQuery } from "@/lib/queries/trends";
import { makeQueryClient } from "@/lib/queries/query-client";
import { runSummaryQuery, runTimelineQuery, runTriageQuery, timelineUrl, turnDetailQuery } from "@/lib/queries/runs";
import { viewerOf } from "@/lib/server/auth/keys";
import { requireSession } from "@/lib/server/auth/session";
import { getDb } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";
import { fetchQuery, loadQuery, prefetchQuery } from "@/lib/server/loaders/prefetch";

/** Runs up to this many turns get their timeline and their follow-up and fatigue in the page itself (see below). */
const EMBEDDED_TIMELINE_TURNS = 1000;

type Props = {
  params: Promise<{ runId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The run id the URL names: Next.js hands pages their segment still percent-encoded, so it is
 * decoded exactly once here (`~?runId=..` names the ids `.` and `..`; see lib/queries/paths.ts).
 * Null for a segment that is no run id (bad encoding, NUL, too long): the page is then not found.
 */
async function runIdOfPage({ params, searchParams }: Props): Promise<string | null> {
  const runId = runIdFromRoute((await params).runId, await searchParams, { decode: true });
  return runId !== null && ZRunIdParam.safeParse(runId).success ? runId : null;
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const runId = await runIdOfPage(props);
  return { title: runId === null ? "Run not found" : `Run ${runId}` };
}

/**
 * The run page: prefetches the header and the timeline of the URL's window (and the selected
 * turn) with the queryOptions the client uses, answered by the routes' loaders; the client
 * explorer hydrates from them and polls while the run is live.
 */
export default async function RunPage(props: Props) {
  const runId = await runIdOfPage(props);
  if (runId === null) notFound();
  const search = await props.searchParams;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) if (one(value) !== undefined) query.set(key, one(value)!);
  const caller = await requireSession(runPath(runId, Object.fromEntries(query)));

  // The key: comments say which are the caller's own.
  const context = { db: await getDb(), projectId: caller.projectId, viewer: viewerOf(caller) };
  const queryClient = makeQueryClient();
  try {
    await fetchQuery(queryClient, runSummaryQuery(runId), context);
  } catch (error) {
    if (error instanceof DomainError && error.kind === "not_found") notFound();
    throw error;
  }

  // `?first=drop|finding|delivery` (the runs list's problem links): the same page at the run's first
  // turn of that kind, found with the triage marks' index; the run itself when it has none.
  const first = query.get("first");
  if (first !== null) {
    const kind = TRIAGE_KINDS.find((k) => k === first);
    const at = kind ? (await loadQuery(runTriageQuery(runId, null), context)).steps[kind].next : null;
    const rest = Object.fromEntries([...query].filter(([name]) => name !== "first" && name !== "runId" && name !== "turn"));
    redirect(runPath(runId, at === null ? rest : { ...rest, turn: at }));
  }

  const window = timelineWindow(query.get("from"), query.get("to"));
  const prefetches: Promise<void>[] = [];
  // A long run's timeline is fetched by the browser instead: embedded in the page it would be sent
  // twice (HTML and hydration data) and hold back the first paint; fetched, it arrives gzipped in
  // parallel with the page's scripts.
  const summary = queryClient.getQueryData(runSummaryQuery(runId).queryKey);
  const embedTimeline = (summary?.turns ?? 0) <= EMBEDDED_TIMELINE_TURNS;
  if (embedTimeline) {
    prefetches.push(prefetchQuery(queryClient, runTimelineQuery(runId, window), context));
  } else {
    // Start the download with the page, not after hydration; the client's fetch of the same URL reuses it.
    preload(timelineUrl(runId, window), { as: "fetch", crossOrigin: "anonymous" });
  }
  // The findings view and the brush read the whole run's timeline: the same query when not zoomed.
  if (embedTimeline && (window.from !== undefined || window.to !== undefined)) {
    prefetches.push(prefetchQuery(queryClient, runTimelineQuery(runId), context));
  }
  const turn = one(search.turn);
  if (turn !== undefined && /^\d{1,9}$/.test(turn)) {
    prefetches.push(prefetchQuery(queryClient, turnDetailQuery(runId, Number(turn)), context));
  }
  // The notes: the run's first page of comments, the selected turn's, and the notes lane's turns.
  prefetches.push(prefetchQuery(queryClient, commentsQuery(runId, "run"), context));
  if (turn !== undefined && /^\d{1,9}$/.test(turn)) {
    prefetches.push(prefetchQuery(queryClient, commentsQuery(runId, Number(turn)), context));
  }
  prefetches.push(prefetchQuery(queryClient, commentedTurnsQuery(runId), context));
  // The Review verdicts panel's reviews.
  prefetches.push(prefetchQuery(queryClient, runReviewsQuery(runId), context));
  // The triage bar's steps from the selected turn (the turn read from the URL as the page reads it).
  prefetches.push(prefetchQuery(queryClient, runTriageQuery(runId, parseTurnParam(turn)), context));
  // The OpenTelemetry panel's first page (nothing is drawn for a run without records).
  prefetches.push(prefetchQuery(queryClient, runOtlpRecordsQuery(runId), context));
  // The run's follow-up and fatigue (the sums stored with its rebuild), in the page of a short run
  // only, as its timeline: their rows are per key, stage and context stage, and a review reminder's
  // stage is its checkpoint, so they grow with the run (about 10,000 rows, 3 MB, for 50,000 turns).
  // A long run's panel, below its charts, fetches them.
  if (embedTimeline) prefetches.push(prefetchQuery(queryClient, runEffectivenessQuery(runId), context));
  await Promise.all(prefetches);

  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <RunExplorer runId={runId} />
    </HydrationBoundary>
  );
}
