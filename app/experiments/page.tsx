import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { ExperimentsPage } from "@/components/experiments/experiments-page";
import { copyVersionsQuery, policyVersionsQuery } from "@/lib/queries/copy";
import { experimentsQuery } from "@/lib/queries/experiments";
import { makeQueryClient } from "@/lib/queries/query-client";
import { requireSession } from "@/lib/server/auth/session";
import { getDb } from "@/lib/server/db";
import { prefetchQuery } from "@/lib/server/loaders/prefetch";

export const metadata: Metadata = { title: "Experiments" };

/** The project's copy and policy experiments, and a form for a new one (contract §10). */
export default async function Experiments() {
  const { projectId } = await requireSession("/experiments");
  const context = { db: await getDb(), projectId };
  const queryClient = makeQueryClient();
  await Promise.all([
    prefetchQuery(queryClient, experimentsQuery(), context),
    prefetchQuery(queryClient, copyVersionsQuery(), context),
    prefetchQuery(queryClient, policyVersionsQuery(), context),
  ]);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ExperimentsPage />
    </HydrationBoundary>
  );
}
