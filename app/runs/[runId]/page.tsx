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
import { makeQueryClient } from "@/lib/queries/query-client";
import { runSummaryQuery, runTriageQuery, timelineUrl, turnDetailQuery } from "@/lib/queries/runs";
import { viewerOf } from "@/lib/server/auth/keys";
import { requireSession } from "@/lib/server/auth/session";
import { getDb } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";
import { fetchQuery, loadQuery, prefetchQuery } from "@/lib/server/loaders/prefetch";

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
 * The run page: prefetches the header, the selected turn, the notes, reviews, triage steps and
 * OpenTelemetry records with the queryOptions the client uses, answered by the routes' loaders, and
 * preloads the timeline of the URL's window; the client explorer hydrates from them and polls while
 * the run is live.
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
  // The timeline is fetched by the browser, not embedded: embedded, it was sent twice (hydration
  // data and the marks and charts rendered to HTML, which hydration renders again) and held back
  // the first byte: a 1,000-turn run's page took twice as long to serve under 20 readers as a
  // 50,000-turn run's (README, Scale). The preload starts its download with the page; the client's
  // fetch of the same URL reuses it.
  preload(timelineUrl(runId, window), { as: "fetch", crossOrigin: "anonymous" });
  // The findings view and the brush read the whole run's timeline: the same URL when not zoomed.
  if (window.from !== undefined || window.to !== undefined) preload(timelineUrl(runId), { as: "fetch", crossOrigin: "anonymous" });
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
  // The run's follow-up and fatigue panel, below the charts, fetches its own data.
  await Promise.all(prefetches);

  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <RunExplorer runId={runId} />
    </HydrationBoundary>
  );
}
