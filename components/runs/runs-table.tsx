import Link from "next/link";
import type { ReactNode } from "react";
import type { TRunListItem, TRunSort } from "@/lib/contracts";
import { formatCount, formatNumber } from "@/lib/format";
import { runListHref, type RunListView } from "@/lib/queries/run-list-url";
import { FindingsCount, ReminderCounts, RequestsUsage, RunStatus, Started, TimeUsage } from "./run-cells";
import { freshnessNote, isBehind } from "@/lib/run-view/freshness";
import styles from "./runs-table.module.css";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { runPath } from "@/lib/queries/paths";

type Props = { runs: TRunListItem[]; view: RunListView; now: number; dimmed?: boolean };

/** The dense runs table: one row per run, each meter in its own unit. */
export function RunsTable({ runs, view, now, dimmed }: Props) {
  return (
    <ScrollRegion label="Runs" className={styles.wrap}>
      <table className={`${styles.table} ${dimmed ? styles.dimmed : ""}`} aria-busy={dimmed || undefined}>
        <caption className="sr-only">Runs</caption>
        <thead>
          <tr>
            <th scope="col" className={styles.colTask}>
              Task
            </th>
            <th scope="col">Agent</th>
            <th scope="col">Model</th>
            <th scope="col">Status</th>
            <SortHeader view={view} desc="-turns" asc="turns" label="Turns" numeric />
            <th scope="col" className={styles.num}>
              Requests <Unit>used/usable</Unit>
            </th>
            <th scope="col" className={styles.num}>
              Time <Unit>min</Unit>
            </th>
            <th scope="col" className={styles.num}>
              Reminders <Unit>● delivered ✕ dropped</Unit>
            </th>
            <th scope="col">
              Findings <Unit>worst severity</Unit>
            </th>
            <SortHeader view={view} desc="-started" asc="started" label="Started" />
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <RunRow key={run.runId} run={run} now={now} />
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** A name that may be long (an agent, a model): cut with an ellipsis, whole in its title. */
function Clipped({ text }: { text: string | null }) {
  if (text === null) return <>—</>;
  return (
    <span className={styles.clipped} title={text}>
      {text}
    </span>
  );
}

function Unit({ children }: { children: ReactNode }) {
  return <span className={styles.unitLabel}>{children}</span>;
}

function RunRow({ run, now }: { run: TRunListItem; now: number }) {
  return (
    <tr className={run.status === "live" ? styles.liveRow : undefined}>
      <td className={styles.colTask}>
        <Link className={styles.task} href={runPath(run.runId)} title={run.task ?? run.runId}>
          {run.task ?? <em>(waiting for run.started)</em>}
        </Link>
        <span className={styles.runId}>
          {run.commentCount > 0 ? (
            <span className={styles.notes} title={`Notes: ${formatCount(run.commentCount, "comment")}`}>
              <span aria-hidden="true">✎</span> {formatNumber(run.commentCount)}
              <span className="sr-only"> {run.commentCount === 1 ? "comment" : "comments"}</span> ·{" "}
            </span>
          ) : null}
          <span title={run.runId}>{run.runId}</span>
          {run.rebuildError ? (
            <span className={styles.rebuildError} title={`Decisions not rebuilt: ${run.rebuildError}`}>
              {" "}
              · not rebuilt
            </span>
          ) : isBehind(run) ? (
            <span className={styles.updating} title={freshnessNote(run) ?? undefined} data-testid="run-updating">
              {" "}
              · updating
            </span>
          ) : null}
        </span>
      </td>
      <td className={styles.muted}>
        <Clipped text={run.agent} />
      </td>
      <td className={styles.muted}>
        <Clipped text={run.model} />
      </td>
      <td>
        <RunStatus status={run.status} />
      </td>
      <td className={styles.num}>{formatNumber(run.turns)}</td>
      <td className={styles.num}>
        <RequestsUsage requests={run.requests} />
      </td>
      <td className={styles.num}>
        <TimeUsage time={run.time} />
      </td>
      <td className={styles.num}>
        <ReminderCounts reminders={run.reminders} />
      </td>
      <td>
        <FindingsCount run={run} />
      </td>
      <td className={styles.started}>
        <Started startedAt={run.startedAt} now={now} />
      </td>
    </tr>
  );
}

type SortHeaderProps = { view: RunListView; desc: TRunSort; asc: TRunSort; label: string; numeric?: boolean };

/** A column header that sorts by its column: first descending, then ascending. */
function SortHeader({ view, desc, asc, label, numeric }: SortHeaderProps) {
  const current = view.sort === desc ? "descending" : view.sort === asc ? "ascending" : undefined;
  const next = view.sort === desc ? asc : desc;
  return (
    <th scope="col" aria-sort={current ?? "none"} className={numeric ? styles.num : undefined}>
      <Link className={styles.sortLink} href={runListHref(view, { sort: next })} scroll={false} title={`Sort by ${label.toLowerCase()}`}>
        {label}
        <span className={current ? styles.sortOn : styles.sortOff} aria-hidden="true">
          {current === "ascending" ? "↑" : "↓"}
        </span>
      </Link>
    </th>
  );
}
