"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { TReplayFilters, TReplaySummary } from "@/lib/contracts";
import { formatInstant, formatNumber } from "@/lib/format";
import { replayListQuery } from "@/lib/queries/replay";
import { Panel } from "@/components/ui/panel";
import { ScrollRegion } from "@/components/ui/scroll-region";
import styles from "./replay.module.css";

/** The filters of a replay in words ("all runs" when none). */
export function filtersText(filters: TReplayFilters): string {
  const parts = [
    filters.status ? `status ${filters.status}` : null,
    filters.agent ? `agent ${filters.agent}` : null,
    filters.model ? `model ${filters.model}` : null,
    filters.q ? `matching “${filters.q}”` : null,
    filters.from ? `from ${formatInstant(filters.from)}` : null,
    filters.to ? `to ${formatInstant(filters.to)}` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "all runs";
}

/** The project's recent replays: status, when, the versions tried, the filters, and a link to each. */
export function RecentReplays({ names, currentId }: { names: Map<string, string>; currentId: string | null }) {
  const list = useQuery(replayListQuery());
  const replays = list.data?.replays ?? [];
  return (
    <Panel id="recent-replays" title="Recent replays" meta={list.data ? `${formatNumber(replays.length)} newest` : undefined}>
      {list.isError ? (
        <p className="form-error">{list.error.message}</p>
      ) : !list.data ? (
        <p className="muted">Loading recent replays…</p>
      ) : replays.length === 0 ? (
        <p className="muted">No replays yet in this project.</p>
      ) : (
        <ScrollRegion label="Recent replays">
          <table className={`data-table ${styles.recent}`} aria-label="Recent replays">
            <thead>
              <tr>
                <th scope="col">Replay</th>
                <th scope="col">Status</th>
                <th scope="col">Started</th>
                <th scope="col">Runs</th>
                <th scope="col">Filters</th>
              </tr>
            </thead>
            <tbody>
              {replays.map((r) => (
                <RecentRow key={r.id} replay={r} names={names} current={r.id === currentId} />
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </Panel>
  );
}

function RecentRow({ replay, names, current }: { replay: TReplaySummary; names: Map<string, string>; current: boolean }) {
  const what = [
    replay.copyVersionId ? `copy “${names.get(replay.copyVersionId) ?? replay.copyVersionId}”` : null,
    replay.policyVersionId ? `policy “${names.get(replay.policyVersionId) ?? replay.policyVersionId}”` : null,
  ]
    .filter(Boolean)
    .join(" and ");
  const { totalRuns, doneRuns, totalTurns } = replay.progress;
  return (
    <tr data-replay={replay.id} aria-current={current ? "true" : undefined}>
      <th scope="row">
        <Link href={`/copy/replay?job=${encodeURIComponent(replay.id)}`}>{what}</Link>
        {current ? <span className="muted"> (shown)</span> : null}
      </th>
      <td>{replay.status === "running" ? `running (${formatNumber(doneRuns)} of ${formatNumber(totalRuns)} runs)` : replay.status}</td>
      <td>{formatInstant(replay.createdAt)}</td>
      <td>
        {formatNumber(totalRuns)} runs · {formatNumber(totalTurns)} turns
      </td>
      <td>{filtersText(replay.filters)}</td>
    </tr>
  );
}
