import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { CopyWorkbench } from "@/components/copy/copy-workbench";
import { previewTurns } from "@/lib/copy/preview-turns";
import { SPEC_COPY_PARAM } from "@/lib/copy/templates";
import { copyVersionsQuery } from "@/lib/queries/copy";
import { makeQueryClient } from "@/lib/queries/query-client";
import { runsListQuery, runSummaryQuery, runTimelineQuery, turnDetailQuery } from "@/lib/queries/runs";
import { requireSession } from "@/lib/server/auth/session";
import { getDb } from "@/lib/server/db";
import { fetchQuery, loadQuery, prefetchQuery } from "@/lib/server/loaders/prefetch";

export const metadata: Metadata = { title: "Copy" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The copy editor. Starts from `?from=<version>` (`from=spec`: the built-in default copy, contract §5; no `from`: the
 * project default, else the built-in default copy) and previews on `?run=&turn=` (else the newest run's most telling turn), all prefetched with
 * the client's queryOptions.
 */
export default async function CopyPage({ searchParams }: { searchParams: SearchParams }) {
  const search = await searchParams;
  const query = new URLSearchParams();
  for (const key of ["from", "run", "turn"]) if (one(search[key])) query.set(key, one(search[key])!);
  const { projectId, project } = await requireSession(`/copy${query.size ? `?${query}` : ""}`);

  const context = { db: await getDb(), projectId };
  const queryClient = makeQueryClient();
  const [versions, runs] = await Promise.all([
    fetchQuery(queryClient, copyVersionsQuery(), context),
    fetchQuery(queryClient, runsListQuery({}), context),
  ]);

  const from = one(search.from);
  const baseId = from === SPEC_COPY_PARAM ? null : (from ?? versions.versions.find((v) => v.isDefault)?.id ?? null);
  const runId = one(search.run) ?? runs.runs.find((r) => r.turns > 0)?.runId ?? null;
  const turnParam = Number(one(search.turn));
  let turn: number | null = Number.isInteger(turnParam) && turnParam >= 0 ? turnParam : null;

  if (runId !== null) {
    // A run that is gone (a stale link) just leaves the preview empty; the picker offers the others.
    // Read directly, not dehydrated: a long run's timeline is large, and the browser fetches it for the picker.
    const timeline = await loadQuery(runTimelineQuery(runId), context).catch(() => null);
    turn ??= timeline ? previewTurns(timeline).suggested : null;
    await Promise.all([
      prefetchQuery(queryClient, runSummaryQuery(runId), context),
      turn === null ? null : prefetchQuery(queryClient, turnDetailQuery(runId, turn), context),
    ]);
  }

  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      {/* Keyed on the URL: following a link to this page (the Copy tab) starts it afresh. */}
      <CopyWorkbench key={query.toString()} project={project} initialBaseId={baseId} initialPreview={{ runId, turn }} />
    </HydrationBoundary>
  );
}
