"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { compareUrl, toggledPair } from "@/lib/compare-view/compare-url";
import { formatNumber } from "@/lib/format";
import { isBehind } from "@/lib/run-view/freshness";
import { RUN_PAGE_SIZES } from "@/lib/contracts";
import { queryInput } from "@/lib/queries/api-input";
import {
  CLEARED_FILTERS,
  DEFAULT_PAGE_SIZE,
  hasFigureFilters,
  hasFilters,
  replayHref,
  runListHref,
  viewQuery,
  type RunListView,
} from "@/lib/queries/run-list-url";
import { SavedViewsMenu } from "@/components/views/saved-views-menu";
import { ColumnChooser } from "./column-chooser";
import toolbarStyles from "./runs-toolbar.module.css";
import { useRunColumns } from "./use-run-columns";
import { experimentsQuery } from "@/lib/queries/experiments";
import { runFacetsQuery, runsListQuery, type RunFilters } from "@/lib/queries/runs";
import { RunsEmpty } from "./runs-empty";
import { RunsFilters } from "./runs-filters";
import { ListHeader, ListPager, listPageStyles as frame, LoadError } from "@/components/ui/list-page";
import styles from "./runs-list.module.css";
import { RunsSkeleton } from "./runs-skeleton";
import { JumpKeys } from "@/components/ui/jump-keys";
import { PageSizeSelect } from "@/components/ui/page-size-select";
import { PROBLEM_RUN, RunsTable } from "./runs-table";
import { useNow } from "./use-now";
import { useRunsNavigation } from "./use-runs-navigation";

/** While any listed run is live, the list refreshes this often. */
export const LIVE_REFRESH_MS = 10_000;

type Props = {
  project: string;
  /** The URL as the controls show it, and the API filters it stands for (parsed on the server). */
  view: RunListView;
  filters: RunFilters;
  /** The server's clock when it rendered, so relative times match on hydration. */
  now: number;
  /** Where agents send events, for the first-run example. */
  ingestUrl: string;
};

export function RunsList({ project, view: serverView, filters, now: serverNow, ingestUrl }: Props) {
  const now = useNow(serverNow);
  const { view, navigate, pending } = useRunsNavigation(serverView);
  const facets = useQuery(runFacetsQuery());
  const experiments = useQuery(experimentsQuery());
  const list = useQuery({
    ...runsListQuery(filters),
    // Refreshed while a run is live or its figures are behind its events (rebuilt in the background).
    refetchInterval: (query) => (query.state.data?.runs.some((run) => run.status === "live" || isBehind(run)) ? LIVE_REFRESH_MS : false),
  });
  const runs = list.data?.runs;
  const anyLive = runs?.some((run) => run.status === "live") ?? false;
  const filtered = hasFilters(view);
  const clearHref = runListHref(view, CLEARED_FILTERS);
  const { columns, setShown, reset } = useRunColumns();
  // The two runs ticked for "Compare selected" (a third tick lets the first go).
  const [compare, setCompare] = useState<string[]>([]);
  const exportQuery = new URLSearchParams(queryInput({ ...filters, cursor: undefined, limit: undefined })).toString();
  const exportHref = (format: "csv" | "json") => `/api/v1/runs/export?format=${format}${exportQuery ? `&${exportQuery}` : ""}`;

  return (
    <div className={frame.page}>
      <ListHeader
        title="Runs"
        pending={pending}
        meta={
          <>
            project <strong>{project}</strong>
            {runs ? (
              <>
                {" · "}
                {formatNumber(runs.length)} {runs.length === 1 ? "run" : "runs"}
                {view.cursor || list.data?.nextCursor ? " on this page" : ""}
              </>
            ) : null}
            {" · "}
            {hasFigureFilters(view) ? (
              <Link href={replayHref(view)} title="The replay chooses runs by search, status, agent, model and start only">
                What-if replay (without the violations, drops, finding and experiment filters) →
              </Link>
            ) : (
              <Link href={replayHref(view)}>What-if replay of these runs →</Link>
            )}
          </>
        }
        activity={
          anyLive ? (
            <span className={styles.autoRefresh} title="The list refreshes every 10 seconds while a listed run is live">
              <span className={styles.liveDot} aria-hidden="true" /> Live · refreshing every 10 s
            </span>
          ) : null
        }
      />

      <RunsFilters view={view} facets={facets.data} experiments={experiments.data?.experiments} navigate={navigate} />

      <div className={toolbarStyles.toolbar} role="toolbar" aria-label="Runs list tools">
        <PageSizeSelect
          value={Number(view.limit ?? DEFAULT_PAGE_SIZE)}
          sizes={RUN_PAGE_SIZES}
          onChange={(size) => navigate({ limit: size === DEFAULT_PAGE_SIZE ? undefined : String(size) })}
        />
        <JumpKeys kind={PROBLEM_RUN} noun="run with problems" />
        <span className={toolbarStyles.spacer} />
        {compare.length === 2 ? (
          <Link className={toolbarStyles.export} href={compareUrl({ a: compare[0], b: compare[1] })}>
            Compare selected
          </Link>
        ) : (
          <span className={toolbarStyles.hint}>
            {compare.length === 1 ? "Select one more run to compare" : "Select two runs to compare"}
          </span>
        )}
        <a className={toolbarStyles.export} href={exportHref("csv")} download>
          Export CSV
        </a>
        <a className={toolbarStyles.export} href={exportHref("json")} download>
          Export JSON
        </a>
        <ColumnChooser columns={columns} onChange={setShown} onReset={reset} />
        <SavedViewsMenu page="runs" query={viewQuery(view)} hrefOf={(query) => (query ? `/runs?${query}` : "/runs")} />
      </div>

      {list.isError ? (
        <LoadError
          title="The runs could not be loaded"
          message={list.error.message}
          onRetry={() => void list.refetch()}
          firstHref={view.cursor ? runListHref(view, { cursor: undefined }) : undefined}
        />
      ) : null}

      {runs === undefined ? (
        list.isError ? null : (
          <RunsSkeleton />
        )
      ) : runs.length === 0 ? (
        <RunsEmpty
          project={project}
          ingestUrl={ingestUrl}
          filtered={filtered || Boolean(view.cursor)}
          clearHref={clearHref}
          now={serverNow}
        />
      ) : (
        <div className={frame.panel}>
          <RunsTable
            runs={runs}
            view={view}
            now={now}
            dimmed={pending}
            columns={columns}
            compare={{ selected: compare, toggle: (runId) => setCompare((chosen) => toggledPair(chosen, runId)) }}
          />
          <ListPager
            info={view.cursor ? "Later page" : "First page"}
            firstHref={view.cursor ? runListHref(view, { cursor: undefined }) : null}
            nextHref={list.data?.nextCursor ? runListHref(view, { cursor: list.data.nextCursor }) : null}
          />
        </div>
      )}
    </div>
  );
}
