import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ReplayTurnView } from "@/components/replay/replay-turn-view";
import { ZIdPathParams, ZRunIdParam, ZTurnParams } from "@/lib/contracts";
import { decodeSegment, replayTurnPath, runIdFromRoute } from "@/lib/queries/paths";
import { copyVersionsQuery, policyVersionsQuery } from "@/lib/queries/copy";
import { makeQueryClient } from "@/lib/queries/query-client";
import { replayTurnQuery } from "@/lib/queries/replay";
import { requireSession } from "@/lib/server/auth/session";
import { getDb } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";
import { fetchQuery, prefetchQuery } from "@/lib/server/loaders/prefetch";

type Props = {
  params: Promise<{ jobId: string; runId: string; turn: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** The job id, run id and turn the URL names (page segments arrive percent-encoded: decoded once), or null. */
async function idsOfPage({ params, searchParams }: Props): Promise<{ jobId: string; runId: string; turn: number } | null> {
  const raw = await params;
  const jobId = decodeSegment(raw.jobId);
  const runId = runIdFromRoute(raw.runId, await searchParams, { decode: true });
  const turn = ZTurnParams.safeParse({ turn: raw.turn });
  if (jobId === null || !ZIdPathParams.safeParse({ id: jobId }).success) return null;
  if (runId === null || !ZRunIdParam.safeParse(runId).success || !turn.success) return null;
  return { jobId, runId, turn: turn.data.turn };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const ids = await idsOfPage(props);
  return { title: ids ? `What-if · ${ids.runId} turn ${ids.turn}` : "Not found" };
}

/** One turn of a replayed run, baseline beside what-if (linked from the replay's changed turns). */
export default async function ReplayTurnPage(props: Props) {
  const ids = await idsOfPage(props);
  if (!ids) notFound();
  const { jobId, runId, turn } = ids;
  const { projectId } = await requireSession(replayTurnPath(jobId, runId, turn));

  const context = { db: await getDb(), projectId };
  const queryClient = makeQueryClient();
  try {
    await fetchQuery(queryClient, replayTurnQuery(jobId, runId, turn), context);
  } catch (error) {
    if (error instanceof DomainError && error.kind === "not_found") notFound();
    throw error;
  }
  await Promise.all([prefetchQuery(queryClient, copyVersionsQuery(), context), prefetchQuery(queryClient, policyVersionsQuery(), context)]);

  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ReplayTurnView jobId={jobId} runId={runId} turn={turn} />
    </HydrationBoundary>
  );
}
