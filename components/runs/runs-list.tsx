"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatNumber } from "../../lib/format";
import { hasFilters, replayHref, runListHref, type RunListView } from "../../lib/queries/run-list-url";
import { runFacetsQuery, runsListQuery, type RunFilters } from "../../lib/queries/runs";
import { RunsEmpty, type IngestTarget } from "./runs-empty";
import { RunsFilters } from "./runs-filters";
import styles from "./runs-list.module.css";
import { RunsSkeleton } from "./runs-skeleton";
import { RunsTable } from "./runs-table";
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
  ingest: IngestTarget;
};

export function RunsList({ project, view: serverView, filters, now: serverNow, ingest }: Props) {
  const now = useNow(serverNow);
  const { view, navigate, pending } = useRunsNavigation(serverView);
  const facets = useQuery(runFacetsQuery());
  const list = useQuery({
    ...runsListQuery(filters),
    refetchInterval: (query) => (query.state.data?.runs.some((run) => run.status === "live") ? LIVE_REFRESH_MS : false),
  });
  const runs = list.data?.runs;
  const anyLive = runs?.some((run) => run.status === "live") ?? false;
  const filtered = hasFilters(view);
  const clearHref = runListHref(view, { q: undefined, status: undefined, agent: undefined, model: undefined, range: undefined });

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <div className={styles.heading}>
          <h1 className={styles.title}>Runs</h1>
          <span className={styles.meta}>
            project <strong>{project}</strong>
            {runs ? (
              <>
                {" · "}
                {formatNumber(runs.length)} {runs.length === 1 ? "run" : "runs"}
                {view.cursor || list.data?.nextCursor ? " on this page" : ""}
              </>
            ) : null}
            {" · "}
            <Link href={replayHref(view)}>What-if replay of these runs →</Link>
          </span>
        </div>
        <div className={styles.activity} aria-live="polite">
          {pending ? (
            <span className={styles.updating}>
              <span className={styles.spinner} aria-hidden="true" /> Updating…
            </span>
          ) : anyLive ? (
            <span className={styles.autoRefresh} title="The list refreshes every 10 seconds while a listed run is live">
              <span className={styles.liveDot} aria-hidden="true" /> Live · refreshing every 10 s
            </span>
          ) : null}
        </div>
      </header>

      <RunsFilters view={view} facets={facets.data} navigate={navigate} />

      {list.isError ? (
        <div role="alert" className={styles.alert}>
          <h2 className={styles.alertTitle}>The runs could not be loaded</h2>
          <p className={styles.alertText}>{list.error.message}</p>
          <p className={styles.alertActions}>
            <button type="button" className="button button-quiet" onClick={() => void list.refetch()}>
              Try again
            </button>{" "}
            {view.cursor ? (
              <Link className="button button-quiet" href={runListHref(view, { cursor: undefined })}>
                First page
              </Link>
            ) : null}
          </p>
        </div>
      ) : null}

      {runs === undefined ? (
        list.isError ? null : <RunsSkeleton />
      ) : runs.length === 0 ? (
        <RunsEmpty project={project} ingest={ingest} filtered={filtered || Boolean(view.cursor)} clearHref={clearHref} now={serverNow} />
      ) : (
        <div className={styles.panel}>
          <RunsTable runs={runs} view={view} now={now} dimmed={pending} />
          <nav className={styles.pager} aria-label="Pages">
            <span className={styles.pagerInfo}>{view.cursor ? "Later page" : "First page"}</span>
            {view.cursor ? (
              <Link className="button button-quiet" href={runListHref(view, { cursor: undefined })} scroll={false}>
                ← First page
              </Link>
            ) : null}
            {list.data?.nextCursor ? (
              <Link className="button button-quiet" href={runListHref(view, { cursor: list.data.nextCursor })} scroll={false}>
                Next page →
              </Link>
            ) : (
              <span className={styles.pagerEnd}>End of list</span>
            )}
          </nav>
        </div>
      )}
    </div>
  );
}
