import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ExperimentPage } from "@/components/experiments/experiment-page";
import { ZRecordIdParam } from "@/lib/contracts";
import { copyVersionsQuery, policyVersionsQuery } from "@/lib/queries/copy";
import { experimentQuery, experimentResultsQuery } from "@/lib/queries/experiments";
import { makeQueryClient } from "@/lib/queries/query-client";
import { requireSession } from "@/lib/server/auth/session";
import { getDb } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";
import { fetchQuery, prefetchQuery } from "@/lib/server/loaders/prefetch";

type Props = { params: Promise<{ id: string }> };

export const metadata: Metadata = { title: "Experiment" };

/** One experiment: its arms, start and stop, and its results per arm (contract §10). */
export default async function Experiment({ params }: Props) {
  const raw = (await params).id;
  const id = (() => {
    try {
      return decodeURIComponent(raw);
    } catch {
      return null;
    }
  })();
  if (id === null || !ZRecordIdParam.safeParse(id).success) notFound();
  const { projectId } = await requireSession(`/experiments/${encodeURIComponent(id)}`);
  const context = { db: await getDb(), projectId };
  const queryClient = makeQueryClient();
  try {
    await fetchQuery(queryClient, experimentQuery(id), context);
  } catch (error) {
    if (error instanceof DomainError && error.kind === "not_found") notFound();
    throw error;
  }
  await Promise.all([
    prefetchQuery(queryClient, experimentResultsQuery(id), context),
    prefetchQuery(queryClient, copyVersionsQuery(), context),
    prefetchQuery(queryClient, policyVersionsQuery(), context),
  ]);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ExperimentPage id={id} />
    </HydrationBoundary>
  );
}
