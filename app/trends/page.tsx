import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { TrendsPage } from "@/components/trends/trends-page";
import { LOCAL_TZ_COOKIE, parseZoneChoice, resolveZone, TZ_COOKIE } from "@/lib/format/zone";
import { makeQueryClient } from "@/lib/queries/query-client";
import { experimentsQuery } from "@/lib/queries/experiments";
import { reviewTrendsQuery } from "@/lib/queries/reviews";
import { runFacetsQuery } from "@/lib/queries/runs";
import { effectivenessQuery, parseTrendsUrl, trendsHref, trendsQuery } from "@/lib/queries/trends";
import { requireSession } from "@/lib/server/auth/session";
import { getDb } from "@/lib/server/db";
import { prefetchQuery } from "@/lib/server/loaders/prefetch";

export const metadata: Metadata = { title: "Trends" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function Trends({ searchParams }: { searchParams: SearchParams }) {
  const view = parseTrendsUrl(await searchParams);
  const { projectId } = await requireSession(trendsHref(view));
  // The user's zone as the browser will resolve it (the choice, or the browser's zone it remembered).
  const jar = await cookies();
  const zone = resolveZone(
    parseZoneChoice(decodeURIComponent(jar.get(TZ_COOKIE)?.value ?? "")),
    decodeURIComponent(jar.get(LOCAL_TZ_COOKIE)?.value ?? ""),
  );
  const context = { db: await getDb(), projectId };
  const queryClient = makeQueryClient();
  // A bad value in the URL is not dehydrated: the client asks, and shows the API's 400 naming it.
  await Promise.all([
    prefetchQuery(queryClient, trendsQuery({ ...view, tz: zone }), context),
    prefetchQuery(queryClient, effectivenessQuery({ ...view, tz: zone }), context),
    prefetchQuery(queryClient, runFacetsQuery(), context),
    prefetchQuery(queryClient, experimentsQuery(), context),
    prefetchQuery(queryClient, reviewTrendsQuery({ tz: zone, from: view.from, to: view.to }), context),
  ]);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <TrendsPage view={view} />
    </HydrationBoundary>
  );
}
