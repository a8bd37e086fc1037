import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { PolicyWorkbench, type PolicyBase } from "@/components/policy/policy-workbench";
import { policyVersionsQuery } from "@/lib/queries/copy";
import { makeQueryClient } from "@/lib/queries/query-client";
import { runSummaryQuery } from "@/lib/queries/runs";
import { readParams } from "@/lib/queries/url-params";
import { requireSession } from "@/lib/server/auth/session";
import { getDb } from "@/lib/server/db";
import { readLoader } from "@/lib/server/loaders/define-loader";
import { fetchQuery, loadQuery } from "@/lib/server/loaders/prefetch";
import { runListLoader } from "@/lib/server/loaders/runs";

export const metadata: Metadata = { title: "Policy" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * The policy editor. Starts from `?from=<version>`, or `?run=<runId>` (that run's own policy), else
 * the project default version, else the newest run's policy.
 */
export default async function PolicyPage({ searchParams }: { searchParams: SearchParams }) {
  const params = readParams(await searchParams, ["from", "run"] as const);
  const query = new URLSearchParams(params as Record<string, string>);
  const { projectId, project } = await requireSession(`/copy/policy${query.size ? `?${query}` : ""}`);

  const context = { db: await getDb(), projectId };
  const queryClient = makeQueryClient();
  const { versions } = await fetchQuery(queryClient, policyVersionsQuery(), context);

  const fromVersion = params.from ?? (params.run ? undefined : versions.find((v) => v.isDefault)?.id);
  let base: PolicyBase = fromVersion && versions.some((v) => v.id === fromVersion) ? { versionId: fromVersion } : null;
  if (!base) {
    // The newest run: the runs list's first page of one (the list's own sort).
    const runId = params.run ?? (await readLoader(runListLoader, context, { query: { limit: "1" } })).runs[0]?.runId;
    const summary = runId ? await loadQuery(runSummaryQuery(runId), context).catch(() => null) : null;
    if (summary?.policy) base = { runId: summary.runId, policy: summary.policy };
  }

  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      {/* Keyed on the URL: following a link to this page (the Policy tab) starts it afresh. */}
      <PolicyWorkbench key={query.toString()} project={project} initialBase={base} />
    </HydrationBoundary>
  );
}
