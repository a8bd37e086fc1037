import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { replayRequest, type ReplayChoice } from "@/lib/queries/replay-choice";
import { ReplayWorkbench } from "@/components/replay/replay-workbench";
import { ZRunStatus } from "@/lib/contracts";
import { copyVersionsQuery, policyVersionsQuery } from "@/lib/queries/copy";
import { makeQueryClient } from "@/lib/queries/query-client";
import { replayJobQuery, replayListQuery, replayMatchingQuery } from "@/lib/queries/replay";
import { runFacetsQuery } from "@/lib/queries/runs";
import { readParams, readTimeRange } from "@/lib/queries/url-params";
import { requireSession } from "@/lib/server/auth/session";
import { getDb } from "@/lib/server/db";
import { prefetchQuery } from "@/lib/server/loaders/prefetch";

export const metadata: Metadata = { title: "What-if replay" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const PARAMS = ["copy", "policy", "job", "status", "agent", "model", "q", "range", "from", "to"] as const;

/**
 * What-if replay. `?copy=&policy=` preselect versions (the copy editor links here), the runs
 * list's filter parameters preselect runs, and `?job=` shows a replay (kept results come back at once).
 */
export default async function ReplayPage({ searchParams }: { searchParams: SearchParams }) {
  const params = readParams(await searchParams, PARAMS);
  const query = new URLSearchParams(params as Record<string, string>);
  const { projectId, project } = await requireSession(`/copy/replay${query.size ? `?${query}` : ""}`);

  const context = { db: await getDb(), projectId };
  const queryClient = makeQueryClient();
  await Promise.all([
    prefetchQuery(queryClient, copyVersionsQuery(), context),
    prefetchQuery(queryClient, policyVersionsQuery(), context),
    prefetchQuery(queryClient, runFacetsQuery(), context),
    // An unknown job is not prefetched: the client asks and shows the API's error.
    params.job ? prefetchQuery(queryClient, replayJobQuery(params.job), context) : null,
  ]);

  const status = ZRunStatus.safeParse(params.status);
  // A shown replay preselects its own versions and filters, so running it again is one click.
  const job = params.job ? queryClient.getQueryData(replayJobQuery(params.job).queryKey) : undefined;
  const initial: ReplayChoice = job
    ? { copyVersionId: job.copyVersionId ?? undefined, policyVersionId: job.policyVersionId ?? undefined, ...job.filters, maxRuns: 500 }
    : {
        copyVersionId: params.copy,
        policyVersionId: params.policy,
        status: status.success ? status.data : undefined,
        agent: params.agent,
        model: params.model,
        q: params.q,
        range: readTimeRange(params.range).range,
        from: params.range ? undefined : params.from,
        to: params.range ? undefined : params.to,
        maxRuns: 500,
      };

  // What the form counts before a replay, and the recent replays (a preset range counts from the
  // browser's clock, so its count is the browser's to ask).
  const { filters = {}, maxRuns = initial.maxRuns } = replayRequest(initial, Date.now());
  await Promise.all([
    prefetchQuery(queryClient, replayListQuery(), context),
    initial.range ? null : prefetchQuery(queryClient, replayMatchingQuery(filters, maxRuns), context),
  ]);

  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      {/* Keyed on the URL: following a link to this page (a tab, another job) starts it afresh. */}
      <ReplayWorkbench key={query.toString()} project={project} initial={initial} initialJobId={params.job ?? null} />
    </HydrationBoundary>
  );
}
