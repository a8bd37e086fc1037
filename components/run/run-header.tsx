import Link from "next/link";
import type { TRunStatus, TRunSummary } from "@/lib/contracts";
import { reviewerOfRunHref } from "@/lib/queries/reviewer-url";
import { formatBytes, formatCount, formatEdits, formatMs, formatNumber, formatRequests, formatTurnCount } from "@/lib/format";
import { STATUS_MARKS } from "@/components/ui/status-mark";
import { freshnessNote } from "@/lib/run-view/freshness";
import { policySummary } from "@/lib/run-view/policy-summary";
import styles from "./run.module.css";

const RUN_STATUS_MARKS: Record<TRunStatus, string> = { live: "◉", completed: "✓", failed: "✗", stopped: "■" };

/** A run's status as shape + word (never colour alone); "live" pulses gently. */
export function RunStatus({ status }: { status: TRunStatus }) {
  return (
    <span className={`${styles.runStatus} ${styles[`run-${status}`]}`} data-testid="run-status">
      <span aria-hidden="true" className={styles.runStatusMark}>
        {RUN_STATUS_MARKS[status]}
      </span>
      {status}
    </span>
  );
}

/** The run's task, who ran it, its status and turns, and its policy: each limit in its own unit. */
export function RunHeader({ summary, polling }: { summary: TRunSummary; polling: boolean }) {
  const parts = policySummary(summary.policy);
  const meters = summary.lastMeters;
  const reminders = summary.reminders;
  const exhausted = meters?.edits?.filter((b) => b.used >= b.limit) ?? [];
  /** Blocks with at least one edit: a block reported at 0 edits was published, not edited. */
  const edited = meters?.edits?.filter((b) => b.used > 0) ?? [];
  const freshness = freshnessNote(summary);
  return (
    <header className={styles.header}>
      <div className={styles.titleRow}>
        <h1 className={styles.task}>{summary.task ?? summary.runId}</h1>
        <div className={styles.identity}>
          <span title="run id" className="mono">
            {summary.runId}
          </span>
          <span>{summary.agent ?? "unknown agent"}</span>
          <span>{summary.model ?? "unknown model"}</span>
          {summary.experimentId ? (
            <Link
              href={`/experiments/${encodeURIComponent(summary.experimentId)}`}
              title="the experiment this run took part in (contract §10)"
            >
              experiment arm: {summary.experimentArm}
            </Link>
          ) : null}
          <RunStatus status={summary.status} />
          <span>
            {formatTurnCount(summary.turns)}
            {summary.skippedTurns ? ` (${formatNumber(summary.skippedTurns)} skipped)` : ""}
          </span>
          <a href="#findings" className={styles.findingsLink} data-testid="header-findings">
            {formatCount(summary.findings, "finding")}
          </a>
          {polling ? <span className={styles.polling}>updating every 5 s</span> : null}
          <Link href={reviewerOfRunHref(summary.runId)}>Reviewer audit of this run →</Link>
          <Link href={`/compare?${new URLSearchParams({ a: summary.runId })}`}>Compare with… →</Link>
        </div>
      </div>
      {freshness ? (
        <p className={styles.freshness} role="status" data-testid="run-freshness">
          {freshness}
        </p>
      ) : null}
      {summary.rebuildError ? (
        <p className={styles.rebuildError} role="alert">
          The decisions cannot be rebuilt: {summary.rebuildError}
        </p>
      ) : null}
      <p className={styles.policy} aria-label="Policy limits">
        <span className={styles.rowLabel}>limits</span>
        {parts.length ? (
          parts.map((part, i) => (
            <span key={part.key} title={part.detail} data-policy={part.key}>
              {i ? <span className={styles.sep}> · </span> : null}
              {part.text}
            </span>
          ))
        ) : (
          <span className="muted">no policy recorded</span>
        )}
      </p>
      {meters ? (
        <p className={styles.policy} aria-label="Meters at the last rebuilt turn">
          <span className={styles.rowLabel}>last turn</span>
          {[
            meters.requests ? `${formatNumber(meters.requests.used)} of ${formatRequests(meters.requests.usable)} usable` : null,
            meters.time ? `${formatMs(meters.time.elapsedMs)} of ${formatMs(meters.time.limitMs)}` : null,
            meters.context ? `${formatBytes(meters.context.requiredBytes)} of ${formatBytes(meters.context.capacityBytes)}` : null,
            edited.length
              ? `${formatCount(edited.length, "block edited", "blocks edited")}${exhausted.length ? `, ${exhausted.map((b) => b.blockId).join(", ")} at ${formatEdits(exhausted[0].limit)} (no edits left)` : ""}`
              : null,
          ]
            .filter((x): x is string => x !== null)
            .map((text, i) => (
              <span key={i}>
                {i ? <span className={styles.sep}> · </span> : null}
                {text}
              </span>
            ))}
          <span className={styles.sep}> · </span>
          <span className={styles.counts}>
            reminders{" "}
            {(["delivered", "dropped", "failed", "uncertain", "pending"] as const)
              .filter((s) => reminders[s] > 0)
              .map((s) => (
                <span key={s} className={`status status-${s}`} title={`${formatNumber(reminders[s])} ${s}`}>
                  <span className="status-glyph" aria-hidden="true">
                    {STATUS_MARKS[s]}
                  </span>
                  {formatNumber(reminders[s])} <span className="sr-only">{s}</span>
                </span>
              ))}
          </span>
        </p>
      ) : null}
    </header>
  );
}
