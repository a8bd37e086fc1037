import Link from "next/link";
import type { ReactNode } from "react";
import { countBySeverity, describeFindings, worstSeverity } from "@/lib/audit/worst-severity";
import type { TDeliveryStatus, TRunListItem, TRunStatus } from "@/lib/contracts";
import { formatNumber, formatRelative, formatTimeUsage, requestsUsageParts } from "@/lib/format";
import { useFormatInstant } from "@/components/layout/time-zone";
import { STATUS_MARKS } from "@/components/ui/status-mark";
import { runFirstPath } from "@/lib/queries/paths";
import styles from "./runs-table.module.css";

/** A run's status as a shape and a word: live runs stand out without relying on colour. */
const RUN_STATUS_MARKS: Record<TRunStatus, string> = {
  live: "◉",
  completed: "✓",
  failed: "▲",
  stopped: "■",
};

export function RunStatus({ status }: { status: TRunStatus }) {
  return (
    <span className={`${styles.runStatus} ${styles[`run-${status}`]}`}>
      <span className={styles.runStatusMark} aria-hidden="true">
        {RUN_STATUS_MARKS[status]}
      </span>
      <span>{status}</span>
    </span>
  );
}

function None({ why }: { why: string }) {
  return (
    <span className={styles.none} title={why}>
      —<span className="sr-only">{why}</span>
    </span>
  );
}

/** Requests used of usable, plus the delivery reserve (on a line of its own), in requests. */
export function RequestsUsage({ requests }: { requests: TRunListItem["requests"] }) {
  if (!requests) return <None why="no requests meter or reading" />;
  const over = requests.used > requests.usable;
  const { used, reserve } = requestsUsageParts(requests);
  return (
    <span
      className={over ? styles.over : undefined}
      title={`${formatNumber(requests.used)} requests used of ${formatNumber(requests.usable)} usable; ${formatNumber(requests.reserve)} held back for delivery (limit ${formatNumber(requests.limit)})${over ? " — into the reserve" : ""}`}
    >
      {used}
      {reserve ? <span className={styles.sub}> {reserve}</span> : null}
    </span>
  );
}

/** Time used of the limit, in minutes. */
export function TimeUsage({ time }: { time: TRunListItem["time"] }) {
  if (!time) return <None why="no time limit or reading" />;
  return <span className={time.elapsedMs > time.limitMs ? styles.over : undefined}>{formatTimeUsage(time.elapsedMs, time.limitMs)}</span>;
}

const MAIN_REMINDER_STATUSES = ["delivered", "dropped"] as const;
const OTHER_REMINDER_STATUSES = ["failed", "uncertain", "pending"] as const;

/**
 * Reminders delivered ● and dropped ✕; failed ▲, uncertain ◆ and pending ○ beneath, when there are
 * any. A dropped count above zero links to the run at its first dropped reminder.
 */
export function ReminderCounts({ runId, reminders }: { runId: string; reminders: TRunListItem["reminders"] }) {
  const others = OTHER_REMINDER_STATUSES.filter((status) => reminders[status] > 0);
  const title = [...MAIN_REMINDER_STATUSES, ...others].map((status) => `${formatNumber(reminders[status])} ${status}`).join(", ");
  return (
    <span className={styles.reminders} title={title}>
      <span className={styles.reminderLine}>
        {MAIN_REMINDER_STATUSES.map((status) =>
          status === "dropped" && reminders.dropped > 0 ? (
            <FirstProblemLink key={status} runId={runId} kind="drop" what="dropped reminder">
              <ReminderCount status={status} count={reminders[status]} />
            </FirstProblemLink>
          ) : (
            <ReminderCount key={status} status={status} count={reminders[status]} />
          ),
        )}
      </span>
      {others.length > 0 ? (
        <span className={`${styles.reminderLine} ${styles.sub}`}>
          {others.map((status) => (
            <ReminderCount key={status} status={status} count={reminders[status]} />
          ))}
        </span>
      ) : null}
    </span>
  );
}

function ReminderCount({ status, count }: { status: TDeliveryStatus; count: number }) {
  return (
    <span className={`${styles.reminder} status-${status}`}>
      {formatNumber(count)}
      <span className="status-glyph" aria-hidden="true">
        {STATUS_MARKS[status]}
      </span>
      <span className="sr-only"> {status}</span>
    </span>
  );
}

/** The findings count, marked with the worst severity as colour, shape and word. */
export function FindingsCount({ run }: { run: TRunListItem }) {
  if (run.findings === 0) return <span className={styles.none}>0</span>;
  const worst = worstSeverity(run.findingsByCode) ?? "notice";
  const bySeverity = countBySeverity(run.findingsByCode)
    .map((s) => `${formatNumber(s.count)} ${s.severity}`)
    .join(", ");
  const title = [`${formatNumber(run.findings)} findings (${bySeverity}); worst: ${worst}`, ...describeFindings(run.findingsByCode)].join(
    "\n",
  );
  return (
    <FirstProblemLink runId={run.runId} kind="finding" what="finding">
      <span className={`${styles.findings} ${styles[`sev-${worst}`]}`} title={title}>
        <span className={styles.findingsCount}>{formatNumber(run.findings)}</span>
        <span className={styles.severity}>{worst}</span>
      </span>
    </FirstProblemLink>
  );
}

/**
 * A count that opens the run at its first turn of that kind (runFirstPath). It is where the list's
 * `]` key puts the focus in a flagged row (data-jump-focus: the first such link of the row).
 */
function FirstProblemLink({ runId, kind, what, children }: { runId: string; kind: "drop" | "finding"; what: string; children: ReactNode }) {
  return (
    <Link className={styles.problemLink} href={runFirstPath(runId, kind)} data-jump-focus="">
      {children}
      <span className="sr-only"> (opens the run at its first {what})</span>
    </Link>
  );
}

export function Started({ startedAt, now }: { startedAt: string | null; now: number }) {
  const formatInstant = useFormatInstant();
  if (!startedAt) return <None why="run.started has not arrived" />;
  return (
    <time dateTime={startedAt} title={formatInstant(startedAt)}>
      {formatRelative(startedAt, now)}
    </time>
  );
}
