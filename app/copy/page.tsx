import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { CopyWorkbench } from "@/components/copy/copy-workbench";
import { ZRunListQuery } from "@/lib/contracts";
import { previewTurns } from "@/lib/copy/preview-turns";
import { SPEC_COPY_PARAM } from "@/lib/copy/templates";
import { copyVersionsQuery } from "@/lib/queries/copy";
import { runsListQuery, runSummaryQuery, turnDetailQuery } from "@/lib/queries/runs";
import { requireSession } from "@/lib/server/auth/session";
import { getDb } from "@/lib/server/db";
import { listRuns } from "@/lib/server/runs/list-runs";
import { getRunSummary, getTurnDetail } from "@/lib/server/runs/run-reads";
import { getRunTimeline } from "@/lib/server/runs/run-timeline";
import { listCopyVersions } from "@/lib/server/versions/versions";

export const metadata: Metadata = { title: "Copy" };
export const dynamic = "force-dynamic";

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

  const db = await getDb();
  const queryClient = new QueryClient();
  const listQuery = ZRunListQuery.parse({});
  const [versions, runs] = await Promise.all([
    queryClient.fetchQuery({ ...copyVersionsQuery(), queryFn: async () => ({ versions: await listCopyVersions(db, projectId) }) }),
    queryClient.fetchQuery({ ...runsListQuery({}), queryFn: () => listRuns(db, projectId, listQuery) }),
  ]);

  const from = one(search.from);
  const baseId = from === SPEC_COPY_PARAM ? null : (from ?? versions.versions.find((v) => v.isDefault)?.id ?? null);
  const runId = one(search.run) ?? runs.runs.find((r) => r.turns > 0)?.runId ?? null;
  const turnParam = Number(one(search.turn));
  let turn: number | null = Number.isInteger(turnParam) && turnParam >= 0 ? turnParam : null;

  if (runId !== null) {
    // A run that is gone (a stale link) just leaves the preview empty; the picker offers the others.
    // Read directly, not dehydrated: a long run's timeline is large, and the browser fetches it for the picker.
    const timeline = await getRunTimeline(db, projectId, runId, {}).catch(() => null);
    turn ??= timeline ? previewTurns(timeline).suggested : null;
    await Promise.all([
      queryClient.prefetchQuery({ ...runSummaryQuery(runId), queryFn: () => getRunSummary(db, projectId, runId) }),
      turn === null
        ? null
        : queryClient.prefetchQuery({ ...turnDetailQuery(runId, turn), queryFn: () => getTurnDetail(db, projectId, runId, turn!) }),
    ]);
  }

  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      {/* Keyed on the URL: following a link to this page (the Copy tab) starts it afresh. */}
      <CopyWorkbench key={query.toString()} project={project} initialBaseId={baseId} initialPreview={{ runId, turn }} />
    </HydrationBoundary>
  );
}
