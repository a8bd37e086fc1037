import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { ReviewerAudit } from "@/components/reviewer/reviewer-audit";
import { ReviewerUrlError } from "@/components/reviewer/reviewer-url-error";
import { makeQueryClient } from "@/lib/queries/query-client";
import { reviewerCandidatesQuery, reviewerFunnelQuery } from "@/lib/queries/reviewer";
import { parseReviewerUrl, reviewerHref } from "@/lib/queries/reviewer-url";
import { runFacetsQuery } from "@/lib/queries/runs";
import { requireSession } from "@/lib/server/auth/session";
import { getDb } from "@/lib/server/db";
import { prefetchQuery } from "@/lib/server/loaders/prefetch";

export const metadata: Metadata = { title: "Reviewer" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function ReviewerPage({ searchParams }: { searchParams: SearchParams }) {
  const parsed = parseReviewerUrl(await searchParams, Date.now());
  const { projectId, project } = await requireSession(reviewerHref(parsed.view, { cursor: parsed.view.cursor }));
  if (!parsed.ok) return <ReviewerUrlError problems={parsed.problems} view={parsed.view} />;

  const { filters, pageSize } = parsed;
  const context = { db: await getDb(), projectId };
  const queryClient = makeQueryClient();
  // The client's queries, answered by the routes' loaders with the input the browser would send.
  // A failed prefetch (a stale cursor) is not dehydrated: the client asks again and shows the error.
  await Promise.all([
    prefetchQuery(queryClient, reviewerCandidatesQuery(filters, pageSize), context),
    prefetchQuery(queryClient, reviewerFunnelQuery(filters), context),
    prefetchQuery(queryClient, runFacetsQuery(), context),
  ]);

  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ReviewerAudit project={project} view={parsed.view} filters={filters} />
    </HydrationBoundary>
  );
}
