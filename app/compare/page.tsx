import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import Link from "next/link";
import { ComparePicker } from "@/components/compare/compare-picker";
import { CompareView } from "@/components/compare/compare-view";
import { ZRunIdParam } from "@/lib/contracts";
import { alignmentOf } from "@/lib/compare-view/overlay";
import { compareUrl } from "@/lib/compare-view/compare-url";
import { compareQuery } from "@/lib/queries/compare";
import { makeQueryClient } from "@/lib/queries/query-client";
import { runSummaryQuery, runTimelineQuery } from "@/lib/queries/runs";
import { parseTurnParam } from "@/lib/run-view/turn-window";
import { requireSession } from "@/lib/server/auth/session";
import { getDb } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";
import { fetchQuery, prefetchQuery } from "@/lib/server/loaders/prefetch";

export const metadata: Metadata = { title: "Compare runs" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Runs up to this many turns get their timelines in the page itself; longer ones are fetched by the browser (as on a run page). */
const EMBEDDED_TIMELINE_TURNS = 1000;

/**
 * `/compare?a=…&b=…[&turn=N][&align=share]` (docs/compare.md): prefetches both runs' headers, the
 * comparison at the URL's turn (or the first difference) and, for runs of up to a thousand turns,
 * both timelines, through the routes' loaders. A run the project does not have is named.
 */
export default async function Compare({ searchParams }: { searchParams: SearchParams }) {
  const search = await searchParams;
  const a = one(search.a) ?? "";
  const b = one(search.b) ?? "";
  const turn = parseTurnParam(one(search.turn));
  const alignment = alignmentOf(one(search.align));
  const caller = await requireSession(a && b ? compareUrl({ a, b, turn, alignment }) : "/compare");
  if (!ZRunIdParam.safeParse(a).success || !ZRunIdParam.safeParse(b).success) return <ComparePicker a={a} b={b} />;

  const context = { db: await getDb(), projectId: caller.projectId };
  const queryClient = makeQueryClient();
  try {
    await fetchQuery(queryClient, compareQuery({ a, b, ...(turn === null ? {} : { turn, direction: "at" as const }) }), context);
  } catch (error) {
    if (error instanceof DomainError && error.kind === "not_found") return <CompareNotFound message={error.message} />;
    throw error;
  }
  const summaries = await Promise.all([
    fetchQuery(queryClient, runSummaryQuery(a), context),
    fetchQuery(queryClient, runSummaryQuery(b), context),
  ]);
  await Promise.all(
    [a, b].map((runId, i) =>
      summaries[i].turns <= EMBEDDED_TIMELINE_TURNS ? prefetchQuery(queryClient, runTimelineQuery(runId), context) : Promise.resolve(),
    ),
  );
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <CompareView a={a} b={b} initialTurn={turn} initialAlignment={alignment} />
    </HydrationBoundary>
  );
}

function CompareNotFound({ message }: { message: string }) {
  return (
    <div className="not-found">
      <p className="eyebrow">404</p>
      <h1>Run not found</h1>
      <p role="alert">Cannot compare: {message}. A run of another project cannot be compared with this project&apos;s runs.</p>
      <p>
        <Link href="/compare" className="button">
          Pick two runs
        </Link>
      </p>
    </div>
  );
}
