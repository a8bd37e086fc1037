import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import Link from "next/link";
import { ComparePicker } from "@/components/compare/compare-picker";
import { CompareView } from "@/components/compare/compare-view";
import { WhatIfCompareView } from "@/components/compare/what-if-compare-view";
import { ZRecordIdParam, ZRunIdParam } from "@/lib/contracts";
import { alignmentOf } from "@/lib/compare-view/overlay";
import { compareUrl, type CompareSides } from "@/lib/compare-view/compare-url";
import { comparisonQuery } from "@/lib/queries/compare";
import { copyVersionsQuery, policyVersionsQuery } from "@/lib/queries/copy";
import { makeQueryClient } from "@/lib/queries/query-client";
import { replayWhatIfRunQuery } from "@/lib/queries/replay";
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
 * `/compare?a=…&replay=<job id>` compares run `a` with its what-if under that replay job instead
 * (B: the what-if's timeline and counts, rebuilt by the replay's loader on a job thread).
 */
export default async function Compare({ searchParams }: { searchParams: SearchParams }) {
  const search = await searchParams;
  const a = one(search.a) ?? "";
  const b = one(search.b) ?? "";
  const replay = one(search.replay) ?? "";
  const turn = parseTurnParam(one(search.turn));
  const alignment = alignmentOf(one(search.align));
  const sides: CompareSides | null = !a ? null : replay ? { a, replay } : b ? { a, b } : null;
  const caller = await requireSession(sides ? compareUrl({ ...sides, turn, alignment }) : "/compare");
  if (!sides || !ZRunIdParam.safeParse(a).success) return <ComparePicker a={a} b={b} />;
  if (sides.replay !== undefined ? !ZRecordIdParam.safeParse(sides.replay).success : !ZRunIdParam.safeParse(sides.b).success)
    return <ComparePicker a={a} b={b} />;

  const context = { db: await getDb(), projectId: caller.projectId };
  const queryClient = makeQueryClient();
  try {
    await fetchQuery(queryClient, comparisonQuery(sides, turn === null ? {} : { turn, direction: "at" as const }), context);
  } catch (error) {
    if (error instanceof DomainError && error.kind === "not_found")
      return <CompareNotFound message={error.message} replay={sides.replay} />;
    // A run not rebuilt yet (or whose events cannot be rebuilt) has no what-if to compare with: say why.
    if (error instanceof DomainError && error.kind === "conflict" && sides.replay !== undefined)
      return (
        <div className="not-found">
          <h1>Cannot compare yet</h1>
          <p role="alert">Cannot compare: {error.message}.</p>
        </div>
      );
    throw error;
  }
  const embed = (runId: string, turns: number) =>
    turns <= EMBEDDED_TIMELINE_TURNS ? prefetchQuery(queryClient, runTimelineQuery(runId), context) : Promise.resolve();
  if (sides.replay !== undefined) {
    // B is the what-if: its timeline (point-budgeted, from the rebuild the comparison above made) and the versions' names.
    const summaryA = await fetchQuery(queryClient, runSummaryQuery(a), context);
    await Promise.all([
      embed(a, summaryA.turns),
      prefetchQuery(queryClient, replayWhatIfRunQuery(sides.replay, a), context),
      prefetchQuery(queryClient, copyVersionsQuery(), context),
      prefetchQuery(queryClient, policyVersionsQuery(), context),
    ]);
    return (
      <HydrationBoundary state={dehydrate(queryClient)}>
        <WhatIfCompareView runId={a} jobId={sides.replay} initialTurn={turn} initialAlignment={alignment} />
      </HydrationBoundary>
    );
  }
  const summaries = await Promise.all([
    fetchQuery(queryClient, runSummaryQuery(a), context),
    fetchQuery(queryClient, runSummaryQuery(sides.b), context),
  ]);
  await Promise.all([embed(a, summaries[0].turns), embed(sides.b, summaries[1].turns)]);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <CompareView a={a} b={sides.b} initialTurn={turn} initialAlignment={alignment} />
    </HydrationBoundary>
  );
}

function CompareNotFound({ message, replay }: { message: string; replay?: string }) {
  return (
    <div className="not-found">
      <p className="eyebrow">404</p>
      <h1>{replay === undefined ? "Run not found" : "Run or replay not found"}</h1>
      <p role="alert">
        Cannot compare: {message}.{" "}
        {replay === undefined
          ? "A run of another project cannot be compared with this project's runs."
          : "A run compares with its what-if only under a replay of this project that replayed it."}
      </p>
      <p>
        {replay === undefined ? (
          <Link href="/compare" className="button">
            Pick two runs
          </Link>
        ) : (
          <Link href={`/copy/replay?job=${encodeURIComponent(replay)}`} className="button">
            Back to the replay
          </Link>
        )}
      </p>
    </div>
  );
}
