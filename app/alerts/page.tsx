import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { AlertsPage } from "@/components/alerts/alerts-page";
import type { RuleDraft } from "@/components/alerts/new-rule";
import { ALERT_KINDS } from "@/lib/contracts";
import { alertListQuery, alertRulesQuery } from "@/lib/queries/alerts";
import { makeQueryClient } from "@/lib/queries/query-client";
import { mayAccess } from "@/lib/server/auth/access";
import { viewerOf } from "@/lib/server/auth/keys";
import { requireSession } from "@/lib/server/auth/session";
import { getDb } from "@/lib/server/db";
import { prefetchQuery } from "@/lib/server/loaders/prefetch";

export const metadata: Metadata = { title: "Alerts" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * The project's alert rules and alerts. `?new=<kind>&key=…&code=…&meter=…&agent=…&model=…` (the
 * trends page's and the runs list's "Alert on this" links) fills in the new-rule form.
 */
export default async function Alerts({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const text = (name: string) => (typeof params[name] === "string" && params[name] ? (params[name] as string) : undefined);
  const search = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => typeof e[1] === "string"));
  const caller = await requireSession(`/alerts${search.size ? `?${search}` : ""}`);
  const kind = text("new");
  const draft: RuleDraft | null =
    kind && (ALERT_KINDS as readonly string[]).includes(kind)
      ? {
          kind: kind as RuleDraft["kind"],
          key: text("key"),
          code: text("code"),
          meter: text("meter"),
          agent: text("agent"),
          model: text("model"),
        }
      : null;
  const queryClient = makeQueryClient();
  const context = { db: await getDb(), projectId: caller.projectId, viewer: viewerOf(caller) };
  await Promise.all([prefetchQuery(queryClient, alertRulesQuery(), context), prefetchQuery(queryClient, alertListQuery(false), context)]);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <AlertsPage canEdit={mayAccess(caller, "admin")} draft={draft} />
    </HydrationBoundary>
  );
}
