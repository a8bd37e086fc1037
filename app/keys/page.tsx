import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { KeysPage } from "@/components/keys/keys-page";
import { KEY_SCOPE_HELP, PERSON_ROLE_HELP } from "@/lib/contracts";
import { keysQuery } from "@/lib/queries/keys";
import { makeQueryClient } from "@/lib/queries/query-client";
import { mayAccess } from "@/lib/server/auth/access";
import { viewerOf } from "@/lib/server/auth/keys";
import { requireSession } from "@/lib/server/auth/session";
import { getDb } from "@/lib/server/db";
import { prefetchQuery } from "@/lib/server/loaders/prefetch";

export const metadata: Metadata = { title: "API keys" };

/** The project's API keys: admin sessions only (the prefetch reads past the route's scope check, so it is checked here). */
export default async function Keys() {
  const caller = await requireSession("/keys");
  if (!mayAccess(caller, "admin")) {
    return (
      <div>
        <h1>API keys</h1>
        <p role="alert">
          {caller.role
            ? `Only a project admin manages keys. Your role in ${caller.project} is ${caller.role} (${PERSON_ROLE_HELP[caller.role]}).`
            : `Only an admin key manages keys. This session was opened with a ${caller.scope} key (${KEY_SCOPE_HELP[caller.scope ?? "admin"]}).`}
        </p>
      </div>
    );
  }
  const queryClient = makeQueryClient();
  await prefetchQuery(queryClient, keysQuery(), { db: await getDb(), projectId: caller.projectId, viewer: viewerOf(caller) });
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <KeysPage />
    </HydrationBoundary>
  );
}
