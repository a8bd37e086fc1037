import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ReplayTurnView } from "../../../../../../../../components/replay/replay-turn-view";
import { ZTurnParams } from "../../../../../../../../lib/contracts";
import { copyVersionsQuery, policyVersionsQuery } from "../../../../../../../../lib/queries/copy";
import { replayTurnQuery } from "../../../../../../../../lib/queries/replay";
import { requireSession } from "../../../../../../../../lib/server/auth/session";
import { getDb } from "../../../../../../../../lib/server/db";
import { DomainError } from "../../../../../../../../lib/server/errors";
import { getReplayTurn } from "../../../../../../../../lib/server/replay/replay-turn";
import { listCopyVersions, listPolicyVersions } from "../../../../../../../../lib/server/versions/versions";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ jobId: string; runId: string; turn: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { runId, turn } = await params;
  return { title: `What-if · ${runId} turn ${turn}` };
}

/** One turn of a replayed run, baseline beside what-if (linked from the replay's changed turns). */
export default async function ReplayTurnPage({ params }: Props) {
  const { jobId, runId, turn: turnParam } = await params;
  const parsed = ZTurnParams.safeParse({ turn: turnParam });
  if (!parsed.success) notFound();
  const { turn } = parsed.data;
  const { projectId } = await requireSession(`/copy/replay/${encodeURIComponent(jobId)}/runs/${encodeURIComponent(runId)}/turns/${turn}`);

  const db = await getDb();
  const queryClient = new QueryClient();
  try {
    await queryClient.fetchQuery({ ...replayTurnQuery(jobId, runId, turn), queryFn: () => getReplayTurn(db, projectId, jobId, runId, turn) });
  } catch (error) {
    if (error instanceof DomainError && error.kind === "not_found") notFound();
    throw error;
  }
  await Promise.all([
    queryClient.prefetchQuery({ ...copyVersionsQuery(), queryFn: async () => ({ versions: await listCopyVersions(db, projectId) }) }),
    queryClient.prefetchQuery({ ...policyVersionsQuery(), queryFn: async () => ({ versions: await listPolicyVersions(db, projectId) }) }),
  ]);

  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ReplayTurnView jobId={jobId} runId={runId} turn={turn} />
    </HydrationBoundary>
  );
}
