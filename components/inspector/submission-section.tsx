import type { TSubmissionEvent } from "@/lib/inspector/turn-record";
import { statusOfOutcome } from "@/lib/inspector/turn-record";
import { shortTime } from "@/lib/inspector/labels";
import { StatusMark } from "@/components/ui/status-mark";
import { InspectorSection } from "./inspector-section";
import styles from "./record.module.css";
import { formatCount } from "@/lib/format";

const OUTCOME_TEXT = { ok: "ok", failed: "failed", uncertain: "uncertain" } as const;

/**
 * The turn's submission outcome: its LAST request.submitted in run order decides the status of
 * every included reminder (R10); earlier ones are listed with their purpose and budget flag.
 */
export function SubmissionSection({
  submissions,
  included,
}: {
  submissions: readonly TSubmissionEvent[];
  /** How many of the rebuild's reminders were included in the request (not dropped); null when the turn was not rebuilt. */
  included: number | null;
}) {
  const last = submissions.at(-1) ?? null;
  return (
    <InspectorSection
      id="inspector-submission"
      title="Submission"
      meta={submissions.length > 1 ? `${submissions.length} request.submitted · the last one counts` : "request.submitted"}
    >
      {last === null ? (
        <p className={styles.callout} data-tone="pending">
          <StatusMark status="pending" label={false} /> <strong>No submission yet.</strong> Included reminders are pending until the
          turn&apos;s request is submitted.
        </p>
      ) : (
        <>
          <p className={styles.outcome}>
            Outcome <strong>{OUTCOME_TEXT[last.body.outcome]}</strong> ·{" "}
            {included === 0 ? (
              "no reminders were included"
            ) : (
              <>
                {included === null ? "included reminders" : formatCount(included, "included reminder")}:{" "}
                <StatusMark status={statusOfOutcome(last)} />
              </>
            )}
          </p>
          <ol className={styles.submissions}>
            {submissions.map((s, i) => {
              const isLast = s === last;
              return (
                <li key={s.id} className={styles.submissionItem} data-current={isLast || undefined}>
                  <div className={styles.submissionHead}>
                    <span className={styles.faint}>#{i + 1}</span>
                    <strong>{OUTCOME_TEXT[s.body.outcome]}</strong>
                    <span>{s.body.purpose ? `purpose ${s.body.purpose}` : <span className={styles.faint}>no purpose given</span>}</span>
                    {isLast ? <span className={styles.tag}>the turn&apos;s submission</span> : null}
                  </div>
                  <div className={styles.submissionMeta}>
                    <span className={styles.num} title={s.ts}>
                      {shortTime(s.ts)}
                    </span>
                    {" · "}
                    {s.body.countsAgainstBudget ? (
                      "counts against the budget"
                    ) : (
                      <span className={styles.warn}>free: not counted against the budget</span>
                    )}
                    {" · list: "}
                    {s.body.reminders === undefined
                      ? "no record"
                      : s.body.reminders.length === 0
                        ? "[] (nothing)"
                        : formatCount(s.body.reminders.length, "reminder")}
                  </div>
                </li>
              );
            })}
          </ol>
        </>
      )}
    </InspectorSection>
  );
}
