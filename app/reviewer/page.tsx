import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { ReviewerAudit } from "@/components/reviewer/reviewer-audit";
import { ReviewerUrlError } from "@/components/reviewer/reviewer-url-error";
import { reviewerCandidatesQuery, reviewerFunnelQuery } from "@/lib/queries/reviewer";
import { parseReviewerUrl, REVIEWER_PAGE_SIZE, reviewerHref } from "@/lib/queries/reviewer-url";
import { runFacetsQuery } from "@/lib/queries/runs";
import { requireSession } from "@/lib/server/auth/session";
import { getDb } from "@/lib/server/db";
import { getReviewerFunnel } from "@/lib/server/reviewer/funnel";
import { listReviewerCandidates } from "@/lib/server/reviewer/list-candidates";
import { getRunFacets } from "@/lib/server/runs/run-facets";

export const metadata: Metadata = { title: "Reviewer" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function ReviewerPage({ searchParams }: { searchParams: SearchParams }) {
  const parsed = parseReviewerUrl(await searchParams, Date.now());
  const { projectId, project } = await requireSession(reviewerHref(parsed.view, { cursor: parsed.view.cursor }));
  if (!parsed.ok) return <ReviewerUrlError problems={parsed.problems} view={parsed.view} />;

  const { filters } = parsed;
  const db = await getDb();
  const queryClient = new QueryClient();
  // The same queryOptions as the client, answered by the services directly (no HTTP round trip).
  // A failed prefetch (a stale cursor) is not dehydrated: the client asks again and shows the error.
  await Promise.all([
    queryClient.prefetchQuery({
      ...reviewerCandidatesQuery(filters),
      queryFn: () => listReviewerCandidates(db, projectId, { ...filters, limit: REVIEWER_PAGE_SIZE }),
    }),
    queryClient.prefetchQuery({
      ...reviewerFunnelQuery(filters),
      queryFn: () => getReviewerFunnel(db, projectId, { ...filters, cursor: undefined, limit: 500 }),
    }),
    queryClient.prefetchQuery({ ...runFacetsQuery(), queryFn: () => getRunFacets(db, projectId) }),
  ]);

  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ReviewerAudit project={project} view={parsed.view} filters={filters} />
    </HydrationBoundary>
  );
}
