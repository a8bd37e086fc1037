import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { ReviewQueue } from "@/components/reviews/review-queue";
import { ReviewerUrlError } from "@/components/reviewer/reviewer-url-error";
import { makeQueryClient } from "@/lib/queries/query-client";
import { membersQuery } from "@/lib/queries/members";
import { parseQueueUrl, queueHref, QUEUE_PAGE_SIZE } from "@/lib/queries/review-queue-url";
import { reviewerCandidatesQuery } from "@/lib/queries/reviewer";
import { reviewProgressQuery } from "@/lib/queries/reviews";
import { mayAccess } from "@/lib/server/auth/access";
import { viewerOf } from "@/lib/server/auth/keys";
import { requireSession } from "@/lib/server/auth/session";
import { getDb } from "@/lib/server/db";
import { prefetchQuery } from "@/lib/server/loaders/prefetch";

export const metadata: Metadata = { title: "Review queue" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function ReviewQueuePage({ searchParams }: { searchParams: SearchParams }) {
  const parsed = parseQueueUrl(await searchParams, Date.now());
  const caller = await requireSession(queueHref(parsed.view));
  if (!parsed.ok) return <ReviewerUrlError problems={parsed.problems} view={parsed.view.audit} />;

  const canWrite = mayAccess(caller, "write");
  const context = { db: await getDb(), projectId: caller.projectId, viewer: viewerOf(caller) };
  const queryClient = makeQueryClient();
  await Promise.all([
    prefetchQuery(queryClient, reviewerCandidatesQuery(parsed.filters, QUEUE_PAGE_SIZE), context),
    prefetchQuery(queryClient, reviewProgressQuery(parsed.filters), context),
    canWrite ? prefetchQuery(queryClient, membersQuery(), context) : null,
  ]);

  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ReviewQueue
        // Another status, assignee or filter is another list: its page, place and saved reviews start anew.
        key={queueHref(parsed.view)}
        project={caller.project}
        view={parsed.view}
        filters={parsed.filters}
        me={caller.person ? { id: caller.person.id, name: caller.person.name } : null}
        canWrite={canWrite}
      />
    </HydrationBoundary>
  );
}
