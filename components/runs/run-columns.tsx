import Link from "next/link";
import type { ReactNode } from "react";
import type { TRunListItem, TRunSort } from "@/lib/contracts";
import { formatCount, formatNumber, formatPercent, formatTurn, formatTurnCount } from "@/lib/format";
import { freshnessNote, isBehind } from "@/lib/run-view/freshness";
import { runPath } from "@/lib/queries/paths";
import { FindingsCount, ReminderCounts, RequestsUsage, RunStatus, Started, TimeUsage } from "./run-cells";
import styles from "./runs-table.module.css";

/**
 * One column of the runs table: its header (a label and its unit), its cell, and the sorts its
 * header toggles. The table, the column chooser and the tests read this one list, so a column is
 * added here and nowhere else. `fixed` columns cannot be hidden (the task names the row).
 */
export interface RunColumn {
  id: string;
  label: string;
  unit?: string;
  numeric?: boolean;
  fixed?: boolean;
  /** Hidden until chosen in the column chooser. */
  hiddenByDefault?: boolean;
  sort?: { desc: TRunSort; asc: TRunSort };
  className?: string;
  cell: (run: TRunListItem, context: { now: number }) => ReactNode;
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

function TaskCell({ run }: { run: TRunListItem }) {
  return (
    <>
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
        {run.nextLimit ? <NextLimit next={run.nextLimit} /> : null}
      </span>
    </>
  );
}

/** A live run's next limit at its recent pace (docs/projection.md): which meter, and in about how many turns. */
function NextLimit({ next }: { next: NonNullable<TRunListItem["nextLimit"]> }) {
  const range = next.turnLow === null || next.turnHigh === null ? "" : ` (${formatNumber(next.turnLow)}–${formatNumber(next.turnHigh)})`;
  return (
    <span
      className={styles.nextLimit}
      data-testid="next-limit"
      title={`At its recent pace, the ${next.meter} limit comes at ${formatTurn(next.turn)}${range}`}
    >
      {" "}
      · next limit: {next.meter} in ~{formatTurnCount(next.turnsLeft)}
    </span>
  );
}

/** Reminders dropped, in reminders. */
function Dropped({ run }: { run: TRunListItem }) {
  const dropped = run.reminders.dropped;
  return <span className={dropped > 0 ? "status-dropped" : styles.none}>{formatNumber(dropped)}</span>;
}

/** The share of reminders dropped, to a tenth of a percent; "—" without reminders. */
function DropRate({ run }: { run: TRunListItem }) {
  if (run.dropRate === null) {
    return (
      <span className={styles.none} title="no reminders">
        —<span className="sr-only">no reminders</span>
      </span>
    );
  }
  return (
    <span title={`${formatNumber(run.reminders.dropped)} of the run's reminders dropped`}>
      {formatPercent(run.dropRate, { digits: 1 })}
    </span>
  );
}

/** Reviewer rows with violations (rows), "—" before a rebuild. */
function Violations({ run }: { run: TRunListItem }) {
  if (run.reviewerViolations === null) return <span className={styles.none}>—</span>;
  return <span className={run.reviewerViolations > 0 ? styles.over : styles.none}>{formatNumber(run.reviewerViolations)}</span>;
}

export const RUN_COLUMNS: readonly RunColumn[] = [
  { id: "task", label: "Task", fixed: true, className: styles.colTask, cell: (run) => <TaskCell run={run} /> },
  { id: "agent", label: "Agent", className: styles.muted, cell: (run) => <Clipped text={run.agent} /> },
  { id: "model", label: "Model", className: styles.muted, cell: (run) => <Clipped text={run.model} /> },
  { id: "status", label: "Status", cell: (run) => <RunStatus status={run.status} /> },
  { id: "turns", label: "Turns", numeric: true, sort: { desc: "-turns", asc: "turns" }, cell: (run) => formatNumber(run.turns) },
  { id: "requests", label: "Requests", unit: "used/usable", numeric: true, cell: (run) => <RequestsUsage requests={run.requests} /> },
  { id: "time", label: "Time", unit: "min", numeric: true, cell: (run) => <TimeUsage time={run.time} /> },
  {
    id: "reminders",
    label: "Reminders",
    unit: "● delivered ✕ dropped",
    numeric: true,
    cell: (run) => <ReminderCounts runId={run.runId} reminders={run.reminders} />,
  },
  {
    id: "dropped",
    label: "Dropped",
    unit: "reminders",
    numeric: true,
    // The Reminders column shows the same count beside the delivered one.
    hiddenByDefault: true,
    sort: { desc: "-dropped", asc: "dropped" },
    cell: (run) => <Dropped run={run} />,
  },
  {
    id: "dropRate",
    label: "Drop rate",
    unit: "% of reminders",
    numeric: true,
    sort: { desc: "-dropRate", asc: "dropRate" },
    cell: (run) => <DropRate run={run} />,
  },
  {
    id: "findings",
    label: "Findings",
    unit: "worst severity",
    sort: { desc: "-findings", asc: "findings" },
    cell: (run) => <FindingsCount run={run} />,
  },
  {
    id: "violations",
    label: "Violations",
    unit: "Reviewer rows",
    numeric: true,
    hiddenByDefault: true,
    cell: (run) => <Violations run={run} />,
  },
  {
    id: "started",
    label: "Started",
    className: styles.started,
    sort: { desc: "-started", asc: "started" },
    cell: (run, { now }) => <Started startedAt={run.startedAt} now={now} />,
  },
];

/** The columns shown by default (every fixed one, every one not hidden by default). */
export const DEFAULT_COLUMN_IDS: readonly string[] = RUN_COLUMNS.filter((c) => !c.hiddenByDefault).map((c) => c.id);
