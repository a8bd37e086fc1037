import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { MembersPage } from "@/components/members/members-page";
import { membersQuery } from "@/lib/queries/members";
import { makeQueryClient } from "@/lib/queries/query-client";
import { mayAccess } from "@/lib/server/auth/access";
import { viewerOf } from "@/lib/server/auth/keys";
import { requireSession } from "@/lib/server/auth/session";
import { getDb } from "@/lib/server/db";
import { prefetchQuery } from "@/lib/server/loaders/prefetch";

export const metadata: Metadata = { title: "Members" };

/** The project's people and invitations; the controls that change them only for admins. */
export default async function Members() {
  const caller = await requireSession("/members");
  const queryClient = makeQueryClient();
  await prefetchQuery(queryClient, membersQuery(), { db: await getDb(), projectId: caller.projectId, viewer: viewerOf(caller) });
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <MembersPage project={caller.project} canManage={mayAccess(caller, "admin")} />
    </HydrationBoundary>
  );
}
