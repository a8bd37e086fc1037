import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { PolicyWorkbench, type PolicyBase } from "@/components/policy/policy-workbench";
import { ZRunListQuery } from "@/lib/contracts";
import { policyVersionsQuery } from "@/lib/queries/copy";
import { readParams } from "@/lib/queries/url-params";
import { requireSession } from "@/lib/server/auth/session";
import { getDb } from "@/lib/server/db";
import { listRuns } from "@/lib/server/runs/list-runs";
import { getRunSummary } from "@/lib/server/runs/run-reads";
import { listPolicyVersions } from "@/lib/server/versions/versions";

export const metadata: Metadata = { title: "Policy" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * The policy editor. Starts from `?from=<version>`, or `?run=<runId>` (that run's own policy), else
 * the project default version, else the newest run's policy.
 */
export default async function PolicyPage({ searchParams }: { searchParams: SearchParams }) {
  const params = readParams(await searchParams, ["from", "run"] as const);
  const query = new URLSearchParams(params as Record<string, string>);
  const { projectId, project } = await requireSession(`/copy/policy${query.size ? `?${query}` : ""}`);

  const db = await getDb();
  const queryClient = new QueryClient();
  const { versions } = await queryClient.fetchQuery({
    ...policyVersionsQuery(),
    queryFn: async () => ({ versions: await listPolicyVersions(db, projectId) }),
  });

  const fromVersion = params.from ?? (params.run ? undefined : versions.find((v) => v.isDefault)?.id);
  let base: PolicyBase = fromVersion && versions.some((v) => v.id === fromVersion) ? { versionId: fromVersion } : null;
  if (!base) {
    const runId = params.run ?? (await listRuns(db, projectId, ZRunListQuery.parse({ limit: 1 }))).runs[0]?.runId;
    const summary = runId ? await getRunSummary(db, projectId, runId).catch(() => null) : null;
    if (summary?.policy) base = { runId: summary.runId, policy: summary.policy };
  }

  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      {/* Keyed on the URL: following a link to this page (the Policy tab) starts it afresh. */}
      <PolicyWorkbench key={query.toString()} project={project} initialBase={base} />
    </HydrationBoundary>
  );
}
