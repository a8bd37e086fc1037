import type { TRunListItem } from "@/lib/contracts";
import { runListHref, type RunListView } from "@/lib/queries/run-list-url";
import { runProblems } from "@/lib/run-list/problems";
import { jumpTarget } from "@/components/ui/jump-keys";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { SortLink } from "@/components/ui/sort-link";
import { RUN_COLUMNS, type RunColumn } from "./run-columns";
import styles from "./runs-table.module.css";

/** The jump kind of runs with drops, findings or Reviewer violations (JumpKeys on the list's toolbar). */
export const PROBLEM_RUN = "problem-run";

type Props = {
  runs: TRunListItem[];
  view: RunListView;
  now: number;
  dimmed?: boolean;
  /** The ids of the columns to show (RUN_COLUMNS order); every column when absent. Fixed columns always show. */
  columns?: readonly string[];
  /** The runs ticked for comparison (at most two) and how a tick changes them; no tick column when absent. */
  compare?: { selected: readonly string[]; toggle: (runId: string) => void };
};

/** The dense runs table: one row per run, each meter in its own unit; columns from RUN_COLUMNS. */
export function RunsTable({ runs, view, now, dimmed, columns, compare }: Props) {
  const shown = RUN_COLUMNS.filter((column) => column.fixed || !columns || columns.includes(column.id));
  return (
    <ScrollRegion label="Runs" className={styles.wrap}>
      <table className={`${styles.table} ${dimmed ? styles.dimmed : ""}`} aria-busy={dimmed || undefined}>
        <caption className="sr-only">Runs</caption>
        <thead>
          <tr>
            {shown.map((column) => (
              <ColumnHeader key={column.id} column={column} view={view} />
            ))}
            {compare ? (
              <th scope="col" className={styles.pick} title="Tick two runs, then Compare selected">
                <span aria-hidden="true">⇄</span>
                <span className="sr-only">Compare</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.runId} className={run.status === "live" ? styles.liveRow : undefined} {...problemTarget(run)}>
              {shown.map((column) => (
                <td key={column.id} className={[column.className, column.numeric ? styles.num : ""].filter(Boolean).join(" ") || undefined}>
                  {column.cell(run, { now })}
                </td>
              ))}
              {compare ? (
                <td className={styles.pick}>
                  <input
                    type="checkbox"
                    aria-label={`Compare ${run.runId}`}
                    checked={compare.selected.includes(run.runId)}
                    onChange={() => compare.toggle(run.runId)}
                  />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** A run with something to look at is a stop of the list's `[` `]` keys. */
function problemTarget(run: TRunListItem) {
  const problems = runProblems(run);
  return problems ? jumpTarget(PROBLEM_RUN, `${run.runId}: ${problems}`) : {};
}

/** A column's header: its label and unit; a sortable one is a link that sorts by it, first descending, then ascending. */
function ColumnHeader({ column, view }: { column: RunColumn; view: RunListView }) {
  const className =
    [column.className === styles.colTask ? styles.colTask : "", column.numeric ? styles.num : ""].filter(Boolean).join(" ") || undefined;
  const unit = column.unit ? (
    <>
      {" "}
      <span className={styles.unitLabel}>{column.unit}</span>
    </>
  ) : null;
  if (!column.sort) {
    return (
      <th scope="col" className={className}>
        {column.label}
        {unit}
      </th>
    );
  }
  const { desc, asc } = column.sort;
  const current = view.sort === desc ? "descending" : view.sort === asc ? "ascending" : undefined;
  const next = view.sort === desc ? asc : desc;
  return (
    <th scope="col" aria-sort={current ?? "none"} className={className}>
      <SortLink
        href={runListHref(view, { sort: next })}
        title={`Sort by ${column.label.toLowerCase()}, ${next === desc ? "highest" : "lowest"} first`}
        sorted={current}
      >
        {column.label}
      </SortLink>
      {unit}
    </th>
  );
}
