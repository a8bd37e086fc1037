import type { TEventType, TFindingCode, TRecordedReminder } from "@/lib/contracts";

/** One event before it gets its id and ts (assigned in emission order when the run is assembled). */
export interface Draft {
  type: TEventType;
  body: Record<string, unknown>;
}

export type Outcome = "ok" | "failed" | "uncertain";

export interface SubmissionBody extends Record<string, unknown> {
  outcome: Outcome;
  purpose: "turn" | "retry" | "reminder_resend";
  countsAgainstBudget?: false;
  reminders?: TRecordedReminder[];
}

/** Everything the generator knows about one turn. */
export interface TurnRecord {
  turn: number;
  /** The clock's elapsedMs at the start of the turn (the turn's meter.time reading). */
  startMs: number;
  durationMs: number;
  /** Facts up to and including the submissions, in emission order. */
  head: Draft[];
  /** Filled from the rebuild: what the agent's own ledger marked as delivered (after the head). */
  marked: TRecordedReminder[] | null;
  /** Notifications and model actions after the submissions. */
  tail: Draft[];
  submissions: SubmissionBody[];
  /** A turn with events but no request.final (injected INCOMPLETE_TURN). */
  skipped: boolean;
  outcome?: Outcome;
  requiredBytes?: number;
  lastCompaction?: { originalBytes: number; candidateBytes: number; outcome: "adopted" | "rolled_back" };
  /** The review checkpoint k when it is new on this turn (a review suggestion is certain). */
  newCheckpoint?: number;
  /** Injection hooks for the list phase. */
  forcedUncertainForResend?: boolean;
  forcedAbandonedCandidate?: boolean;
}

/** A finding the generator expects the rebuild to make. */
export interface ExpectedFinding {
  code: TFindingCode;
  turn: number | null;
  note: string;
}

/** One deliberate deviation, with the turn where its finding belongs. */
export interface InjectedAnomaly {
  code: TFindingCode;
  turn: number | null;
  note: string;
}

export interface AnomalyManifest {
  /** The codes asked for (each `repeats` times). */
  requested: TFindingCode[];
  repeats: number;
  /** What was injected, in turn order. */
  injected: InjectedAnomaly[];
  /** Requested injections the run had no room for (too short, or a policy section missing). */
  notInjected: { code: TFindingCode; reason: string }[];
  /**
   * Every finding the rebuild should make for this run, injected or not: the injected ones, the
   * findings an injection brings along (an UNCERTAIN_RESENT entry is also UNEXPECTED_REMINDER, say)
   * and natural ones (an unbilled retry is a FREE_REQUEST). Sorted like RunDecisions.findings
   * (turn, run-level last, then contract §7 order).
   */
  expectedFindings: ExpectedFinding[];
}

export function stageOf(numerator: number, denominator: number, stages: readonly number[]): number {
  const ratio = denominator <= 0 ? Infinity : numerator / denominator;
  let stage = 0;
  for (const threshold of stages) if (ratio >= threshold) stage++;
  return stage;
}

export function labelOf(entry: TRecordedReminder): string {
  return `${entry.key}${entry.subject ? ` ${entry.subject}` : ""} stage ${entry.stage}`;
}
