import type { TEvent, TRunDecisions } from "@/lib/contracts";
import {
  RebuildCheckpointError,
  rebuildWithCheckpoint,
  resumeRebuild,
  RunInputError,
  summarizeDecisions,
  type CheckpointedRebuild,
  type RebuildCheckpoint,
} from "@/lib/core";
import { buildTimeline, TIMELINE_EVENT_TYPES } from "@/lib/charts";
import { reviewerAudit, type ReviewerAudit } from "@/lib/reviewer/audit";
import { StoredDataError, storedEvent, type StoredEventRow, type TRunSummaryColumn } from "@/lib/server/db/json-columns";

export interface RebuildTaskInput {
  runId: string;
  /** Every stored event of the run (a full rebuild), or only those a resume needs (see `resume`). */
  rows: readonly StoredEventRow[];
  /**
   * Resume from the stored rebuild: its checkpoint and decisions (JSON text), with `rows` holding
   * the events of turns >= the checkpoint's nextTurn and run.ended, and `reviewerRows` the run's
   * events of the types the Reviewer audit reads (all turns).
   */
  resume?: { checkpoint: RebuildCheckpoint; decisionsJson: string; reviewerRows: readonly StoredEventRow[] };
  /** The events the result includes (a resume reads only some of them). */
  eventCount: number;
}

/** What a rebuild stores: the decisions as the JSON text that is served, their summary, the Reviewer audit and the checkpoint; or why it failed. */
export type RebuildTaskOutput =
  | {
      ok: true;
      json: string;
      summary: TRunSummaryColumn;
      audit: ReviewerAudit;
      /** The whole run's timeline (the run page's first chart) as JSON text. */
      timelineJson: string;
      checkpoint: RebuildCheckpoint | null;
      /** "resumed": from the stored checkpoint; "full": from every event. */
      mode: "full" | "resumed";
      eventCount: number;
    }
  | { ok: false; error: string; eventCount: number };

/**
 * The CPU part of a run's rebuild, pure and self-contained so it can run in a worker thread
 * (lib/server/jobs/threads.ts): stored rows → events (each read back through the event contract) →
 * the core's decisions (contract §6), resumed from the stored checkpoint when the job found one
 * that still holds (lib/core/resume.ts) → their JSON text, their summary, the run's Reviewer audit
 * (lib/reviewer/audit.ts), the whole run's timeline (the run page's first chart, lib/charts) and the
 * next checkpoint. A run whose events cannot be rebuilt (no
 * run.started, a second one) or whose stored rows no longer parse answers why. A resume the core
 * refuses (RebuildCheckpointError) answers "full rebuild needed" so the job reads every event.
 */
export function rebuildTask(input: RebuildTaskInput): RebuildTaskOutput | { ok: "full rebuild needed" } {
  try {
    const events = input.rows.map((row) => storedEvent(row, input.runId));
    let built: CheckpointedRebuild;
    let auditEvents: TEvent[] = events;
    if (input.resume) {
      const previous = { decisions: JSON.parse(input.resume.decisionsJson) as TRunDecisions, checkpoint: input.resume.checkpoint };
      try {
        built = resumeRebuild(previous, events);
      } catch (error) {
        if (error instanceof RebuildCheckpointError) return { ok: "full rebuild needed" };
        throw error;
      }
      auditEvents = input.resume.reviewerRows.map((row) => storedEvent(row, input.runId));
    } else {
      built = rebuildWithCheckpoint(events);
    }
    const { decisions } = built;
    return {
      ok: true,
      json: JSON.stringify(decisions),
      summary: summaryOf(decisions, input.resume ? input.resume.checkpoint : events),
      audit: reviewerAudit(auditEvents, decisions),
      timelineJson: JSON.stringify(
        buildTimeline(
          decisions,
          auditEvents.filter((e) => TIMELINE_TYPES.has(e.type)),
        ),
      ),
      checkpoint: built.checkpoint,
      mode: input.resume ? "resumed" : "full",
      eventCount: input.eventCount,
    };
  } catch (error) {
    if (error instanceof RunInputError || error instanceof StoredDataError)
      return { ok: false, error: error.message, eventCount: input.eventCount };
    throw error;
  }
}

const TIMELINE_TYPES: ReadonlySet<string> = new Set(TIMELINE_EVENT_TYPES);

/**
 * The decisions' counts plus the policy and copy the run started with (run_decisions.summary),
 * read from its run.started or, on a resume, from the checkpoint that carries them.
 */
export function summaryOf(decisions: TRunDecisions, from: readonly TEvent[] | RebuildCheckpoint): TRunSummaryColumn {
  const counts = summarizeDecisions(decisions);
  if (!Array.isArray(from)) {
    const checkpoint = from as RebuildCheckpoint;
    return { ...counts, policy: checkpoint.policy, copy: checkpoint.copy ?? null };
  }
  const started = (from as readonly TEvent[]).find((e) => e.type === "run.started");
  return {
    ...counts,
    policy: started?.type === "run.started" ? started.body.policy : {},
    copy: started?.type === "run.started" ? (started.body.copy ?? null) : null,
  };
}
