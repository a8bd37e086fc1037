import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { AuditPage } from "@/components/audit/audit-page";
import { auditFiltersOf, auditQuery } from "@/lib/queries/audit";
import { makeQueryClient } from "@/lib/queries/query-client";
import { requireSession } from "@/lib/server/auth/session";
import { getDb } from "@/lib/server/db";
import { prefetchQuery } from "@/lib/server/loaders/prefetch";

export const metadata: Metadata = { title: "Audit log" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The project's audit log; the filters and page position are the URL's (a bad one is the list's error, naming it). */
export default async function Audit({ searchParams }: { searchParams: SearchParams }) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(await searchParams)) if (typeof value === "string") search.set(name, value);
  const { projectId } = await requireSession(`/audit${search.size ? `?${search}` : ""}`);
  const queryClient = makeQueryClient();
  await prefetchQuery(queryClient, auditQuery(auditFiltersOf(search), search.get("cursor")), { db: await getDb(), projectId });
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <AuditPage />
    </HydrationBoundary>
  );
}
