import type { TTurnDetail } from "@/lib/contracts";
import { formatTurn } from "@/lib/format";
import { diffAgentWithRebuild } from "@/lib/inspector/agent-diff";
import { readTurnRecord } from "@/lib/inspector/turn-record";
import { AgentDiffSection } from "./agent-diff-section";
import { CandidatesSection } from "./candidates-section";
import { ContextSection } from "./context-section";
import { EventsSection } from "./events-section";
import { FindingsSection } from "./findings-section";
import { FittingWaterfall } from "./fitting-waterfall";
import { LanesSection } from "./lanes-section";
import { MetersSection } from "./meters-section";
import { SubmissionSection } from "./submission-section";
import styles from "./inspector.module.css";

/** Everything the inspector shows of one loaded turn. */
export function TurnBody({ detail }: { detail: TTurnDetail }) {
  const { decision, exists, findings, turn } = detail;
  const record = readTurnRecord(detail.events);

  if (!exists) {
    return (
      <div className={styles.body}>
        <p className={styles.banner} data-tone="empty">
          <strong>{formatTurn(turn)} has no events in this run.</strong> Only turns with at least one event exist; use ← → to go to the
          nearest ones.
        </p>
      </div>
    );
  }

  const diff = diffAgentWithRebuild({
    reminders: decision?.reminders ?? null,
    submission: record.submission?.body ?? null,
    marked: record.marked.flatMap((m) => m.body.reminders),
  });

  return (
    <div className={styles.body}>
      {decision === null ? (
        <p className={styles.banner} data-tone="skipped">
          <strong>Skipped turn</strong> — <code>INCOMPLETE_TURN</code>: it has events but no <code>request.final</code>, so its request
          cannot be rebuilt. No candidates, no fitting, no ledger change and no Reviewer candidate (R14); its meter readings still count for
          later turns. Its events are shown below.
        </p>
      ) : null}
      {decision ? (
        <>
          <MetersSection meters={decision.meters} />
          <CandidatesSection reminders={decision.reminders} runId={detail.runId} turn={turn} />
          <FittingWaterfall decision={decision} />
        </>
      ) : null}
      <SubmissionSection
        submissions={record.submissions}
        included={decision ? decision.reminders.filter((reminder) => reminder.status !== "dropped").length : null}
      />
      <AgentDiffSection diff={diff} skipped={decision === null} />
      <FindingsSection findings={findings} />
      <ContextSection decision={decision} compactions={record.compactions} finals={record.finals} />
      <LanesSection
        rebuilt={decision?.reviewer ?? null}
        wasRebuilt={decision !== null}
        reviewer={record.reviewer}
        notifications={record.notifications}
        actions={record.actions}
      />
      <EventsSection events={record.events} unreadable={record.unreadable} open={decision === null} />
    </div>
  );
}
