import Link from "next/link";
import type { TReminderDecision } from "@/lib/contracts";
import { formatBytes } from "@/lib/format";
import { pairLabel, stageLabel } from "@/lib/inspector/labels";
import { StatusMark } from "@/components/ui/status-mark";
import { InspectorSection } from "./inspector-section";
import styles from "./fitting.module.css";

/** The rebuild's candidates in presentation order (R4): rendered text, byte cost and delivery status. */
export function CandidatesSection({ reminders, runId, turn }: { reminders: readonly TReminderDecision[]; runId: string; turn: number }) {
  return (
    <InspectorSection id="inspector-candidates" title="Candidates" meta="R4 order · UTF-8 bytes + newline">
      {reminders.length === 0 ? (
        <p className={styles.empty}>The rules made no candidate this turn.</p>
      ) : (
        <ol className={styles.candidates}>
          {reminders.map((r) => (
            <li key={`${r.key}:${r.subject ?? ""}`} className={styles.candidate} data-status={r.status}>
              <div className={styles.candidateHead}>
                <span className={styles.pair}>{pairLabel(r.key, r.subject)}</span>
                <span className={styles.stage}>
                  {stageLabel(r.key, r.stage)} · {r.kind}
                </span>
                <span className={styles.cost}>{formatBytes(r.bytes)}</span>
                <StatusMark status={r.status} />
              </div>
              <p className={styles.text}>{r.text}</p>
              {r.status === "dropped" ? (
                <p className={styles.dropNote}>
                  dropped for capacity: needs {formatBytes(r.bytes)}, {formatBytes(r.freeBytes ?? 0)} free
                </p>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      {reminders.length > 0 ? (
        <p className={styles.tryCopy}>
          <Link href={`/copy?run=${encodeURIComponent(runId)}&turn=${turn}`}>Try other wording on this turn →</Link>
        </p>
      ) : null}
    </InspectorSection>
  );
}
