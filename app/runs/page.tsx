import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { headers } from "next/headers";
import { RunsList } from "@/components/runs/runs-list";
import { RunsUrlError } from "@/components/runs/runs-url-error";
import { experimentsQuery } from "@/lib/queries/experiments";
import { makeQueryClient } from "@/lib/queries/query-client";
import { parseRunListUrl, runListHref } from "@/lib/queries/run-list-url";
import { runFacetsQuery, runsListQuery } from "@/lib/queries/runs";
import { requireSession } from "@/lib/server/auth/session";
import { getDb } from "@/lib/server/db";
import { prefetchQuery } from "@/lib/server/loaders/prefetch";

export const metadata: Metadata = { title: "Runs" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function RunsPage({ searchParams }: { searchParams: SearchParams }) {
  const search = await searchParams;
  const now = Date.now();
  const parsed = parseRunListUrl(search, now);
  const { projectId, project } = await requireSession(runListHref(parsed.view));
  if (!parsed.ok) return <RunsUrlError problems={parsed.problems} view={parsed.view} />;

  const context = { db: await getDb(), projectId };
  const queryClient = makeQueryClient();
  // The client's queries, answered by the routes' loaders with the input the browser would send.
  await Promise.all([
    prefetchQuery(queryClient, runsListQuery(parsed.filters), context),
    prefetchQuery(queryClient, runFacetsQuery(), context),
    prefetchQuery(queryClient, experimentsQuery(), context),
  ]);

  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <RunsList project={project} view={parsed.view} filters={parsed.filters} now={now} ingestUrl={`${await origin()}/api/v1/ingest`} />
    </HydrationBoundary>
  );
}

/** This server's origin as the browser reached it, for the copy-paste curl example. */
async function origin(): Promise<string> {
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost:3000";
  const proto = h.get("x-forwarded-proto")?.split(",")[0]?.trim() ?? "http";
  return `${proto}://${host}`;
}
