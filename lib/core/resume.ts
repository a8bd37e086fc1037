import { z } from "zod";
import { ZCopy, ZPolicy, ZRecordedReminder, type TEvent, type TFinding, type TRunDecisions, type TTurnDecision } from "@/lib/contracts";
import { RebuildCheckpointError, RunInputError } from "./errors";
import { EventAudit } from "./event-audit";
import { MeterFacts } from "./facts";
import { fingerprint } from "./fingerprint";
import {
  finishedFindings,
  rebuildTurns,
  runStartOf,
  startState,
  turnOf,
  type RebuildOptions,
  type RebuildOutput,
  type RunState,
} from "./rebuild";
import { ReminderRenderer } from "./reminder-renderer";
import { resolveCopy } from "./render";
import { runOrder } from "./run-order";

/**
 * The format of `RebuildCheckpoint`. Raise it whenever the checkpoint's shape or the rebuild's
 * rules change: a checkpoint of another version is refused, and the run is rebuilt in full.
 */
export const REBUILD_CHECKPOINT_VERSION = 1;

/** `IdRanges`: an id, or a run of counter ids [stem, width, first, last]. */
const ZIds = z.array(
  z.union([
    z.string(),
    z
      .tuple([z.string(), z.number().int().min(1).max(15), z.number().int().min(0), z.number().int().min(0)])
      .refine(([, , first, last]) => first <= last),
  ]),
);
const ZCount = z.number().int().min(0);

/**
 * A rebuild checkpoint (not to be confused with R7's review checkpoint k): the state the rebuild
 * carries from turn to turn, as plain JSON, after every turn before `nextTurn`. It is what
 * `resumeRebuild` needs besides the events of turns >= `nextTurn`. It holds no events, only what
 * the rebuild must remember: meter facts (one entry per block), the ledger, the last Reviewer
 * candidate's checkpoint, the last turn's uncertain list, and the Reviewer ids the audit must
 * remember (admitted candidates and dispatch ids, which later events may name again) as counter
 * ranges (`IdRanges`), so a run whose agent numbers its ids keeps a checkpoint of a few kB (about
 * 9 kB after 20,000 generated turns; the ranges break only where a candidate was denied). Stored as
 * JSON and read back with this schema.
 */
export const ZRebuildCheckpoint = z.object({
  version: z.literal(REBUILD_CHECKPOINT_VERSION),
  /** `fingerprint` of the rebuild's options (policy and copy overrides): another rebuild's checkpoint is refused. */
  options: z.string(),
  runId: z.string(),
  /** The id of the run's run.started (its policy and copy are below, so it need not be loaded again). */
  startedId: z.string(),
  /** Every turn before it is taken; the events of turns >= nextTurn are read again on resume. */
  nextTurn: ZCount,
  /** How many of the decisions' turns and findings belong to turns before `nextTurn`: they are kept. */
  kept: z.object({ turns: ZCount, findings: ZCount }),
  policy: ZPolicy,
  copy: ZCopy.nullable(),
  facts: z.object({
    requestsUsed: z.number().nullable(),
    elapsedMs: z.number().nullable(),
    blocks: z.array(z.tuple([z.string(), z.number(), z.number().nullable()])),
  }),
  ledger: z.object({ requests: z.number(), time: z.number(), context: z.number(), review: z.number() }),
  audit: z.object({ admitted: ZIds, dispatches: z.object({ dispatched: ZIds, completed: ZIds, running: ZCount }) }),
  lastReviewerCheckpoint: z.number(),
  /** The last rebuilt turn when its submission was uncertain, with its list (UNCERTAIN_RESENT). */
  uncertain: z.object({ turn: ZCount, reminders: z.array(ZRecordedReminder) }).nullable(),
});
export type RebuildCheckpoint = z.infer<typeof ZRebuildCheckpoint>;

/** A rebuild's decisions with the checkpoint to resume it from. */
export interface CheckpointedRebuild {
  decisions: TRunDecisions;
  /** null when no turn before the last one has events yet: the next rebuild is a full one. */
  checkpoint: RebuildCheckpoint | null;
  /**
   * Decisions and findings of turns before this one are the previous result's, unchanged; those of
   * later turns and the run-level findings may differ. 0 for a full rebuild.
   */
  rebuiltFromTurn: number;
  /** How many leading `decisions.turns` and `decisions.findings` are the previous result's (0 and 0 for a full rebuild). */
  unchanged: { turns: number; findings: number };
}

/**
 * A full rebuild (the same decisions as `rebuild(events, options)`) that also returns a checkpoint
 * taken just before the run's last turn that has events — that turn may still get events, the ones
 * before it are complete. The checkpoint is null when there is nothing before the last turn.
 */
export function rebuildWithCheckpoint(events: readonly TEvent[], options: RebuildOptions = {}): CheckpointedRebuild {
  const ordered = runOrder(events);
  const started = runStartOf(ordered);
  const state = startState(options.policy ?? started.body.policy, options.copy ?? started.body.copy);
  const identity: Identity = { options: fingerprintOf(options), runId: started.runId, startedId: started.id };
  const out: RebuildOutput = { turns: [], findings: [], runLevel: [] };
  let checkpoint: RebuildCheckpoint | null = null;
  rebuildTurns(state, ordered, 1, out, () => (checkpoint = takeCheckpoint(state, out, identity)));
  return {
    decisions: { runId: started.runId, turns: out.turns, findings: finishedFindings(out) },
    checkpoint,
    rebuiltFromTurn: 0,
    unchanged: { turns: 0, findings: 0 },
  };
}

/**
 * Goes on from a checkpoint: `previous` is the last result (its decisions and checkpoint, as
 * stored), `events` are ALL the run's events of turns >= `previous.checkpoint.nextTurn` — old and
 * new — plus its run.ended if it has one (run.started may be left out). Returns decisions
 * deep-equal to `rebuild(allEvents, options)` at a cost that grows with those events only, and the
 * next checkpoint. Turns before `nextTurn` are not taken again: their decisions and findings are
 * copied from `previous.decisions`. So contract §6 holds across resumes: the same events give the
 * same decisions, however the run was delivered and resumed.
 *
 * A caller that stores the decisions in parts need not load them whole: `resumeRebuildTail` takes
 * only what the resume needs of them (`resumeBaseOf` says what) and returns the turns from
 * `kept.turns` on; this function is that one with the kept turns put back in front.
 *
 * A background job calls it so: read the stored checkpoint (`readRebuildCheckpoint`); if
 * `needsFullRebuild(checkpoint, eventsSinceIt, options)`, run `rebuildWithCheckpoint(allEvents)`;
 * else load the events with turn >= `checkpoint.nextTurn` and run.ended, resume, and store
 * `decisions` (only turns >= `rebuiltFromTurn` and the findings after `unchanged.findings` changed)
 * with the new `checkpoint`.
 *
 * Throws RebuildCheckpointError (the caller then rebuilds in full with `rebuildWithCheckpoint`)
 * when the checkpoint has another format version, was made with other options, does not match
 * `previous.decisions`, or an event has a turn before `nextTurn` (a late event: check new events
 * with `needsFullRebuild` first). Repeats and conflicting ids among the given events are treated as
 * `rebuild` treats them (RunInputError for the same id with other content); events before
 * `nextTurn` are not seen, so a conflict with one of them is the ingestion's to refuse.
 */
export function resumeRebuild(
  previous: { decisions: TRunDecisions; checkpoint: RebuildCheckpoint },
  events: readonly TEvent[],
  options: RebuildOptions = {},
): CheckpointedRebuild {
  const { decisions, checkpoint } = previous;
  const tail = resumeRebuildTail(resumeBaseOf(decisions, checkpoint), events, options);
  return {
    decisions: {
      runId: checkpoint.runId,
      turns: decisions.turns.slice(0, checkpoint.kept.turns).concat(tail.turns),
      findings: tail.findings,
    },
    checkpoint: tail.checkpoint,
    rebuiltFromTurn: tail.rebuiltFromTurn,
    unchanged: tail.unchanged,
  };
}

/**
 * What a resume needs of the previous result besides its checkpoint: not its turns, only how many
 * there are and the turn numbers either side of the kept ones (to check that the result is the one
 * the checkpoint was taken with), and its findings (a run's findings are few).
 */
export interface ResumeBase {
  checkpoint: RebuildCheckpoint;
  /** The previous decisions' runId. */
  runId: string;
  turns: {
    /** How many turns the previous decisions hold. */
    count: number;
    /** The turn number of the previous decisions' turn at index `kept.turns - 1` (null when kept.turns is 0). */
    lastKept: number | null;
    /** The turn number of the previous decisions' turn at index `kept.turns` (null when there is none). */
    firstRedone: number | null;
  };
  /** The previous decisions' findings (all of them: the first `kept.findings` are kept). */
  findings: readonly TFinding[];
}

/** `resumeRebuildTail`'s result: the turns that replace the previous result's from index `unchanged.turns` on. */
export interface ResumedTail {
  /** The decisions of turns >= `rebuiltFromTurn`: the new result is the previous result's first `unchanged.turns` turns, then these. */
  turns: TTurnDecision[];
  /** The new result's findings, whole (the first `unchanged.findings` are the previous result's). */
  findings: TFinding[];
  checkpoint: RebuildCheckpoint | null;
  rebuiltFromTurn: number;
  unchanged: { turns: number; findings: number };
}

/** The `ResumeBase` of a previous result held whole. */
export function resumeBaseOf(decisions: TRunDecisions, checkpoint: RebuildCheckpoint): ResumeBase {
  const { kept } = checkpoint;
  return {
    checkpoint,
    runId: decisions.runId,
    turns: {
      count: decisions.turns.length,
      lastKept: decisions.turns[kept.turns - 1]?.turn ?? null,
      firstRedone: decisions.turns[kept.turns]?.turn ?? null,
    },
    findings: decisions.findings,
  };
}

/**
 * `resumeRebuild` without the previous result's turns: from `base` (its checkpoint, turn count and
 * the turn numbers either side of the kept ones, and its findings) and the same events, the new
 * result's turns from index `kept.turns` on, and its findings whole. The previous result's first
 * `kept.turns` turns followed by `turns` are deep-equal to `rebuild(allEvents, options).turns`. Its
 * cost grows with the given events only, whatever the run's length. Throws as `resumeRebuild` does.
 */
export function resumeRebuildTail(base: ResumeBase, events: readonly TEvent[], options: RebuildOptions = {}): ResumedTail {
  const { checkpoint } = base;
  const refused = refusal(checkpoint, options) ?? baseMismatch(base);
  if (refused) throw refused;

  const ordered = runOrder(events);
  let from = 0;
  for (; ordered[from]?.type === "run.started"; from++) {
    const id = ordered[from].id;
    if (id !== checkpoint.startedId) throw new RunInputError(`the run has a second run.started event (${JSON.stringify(id)})`, id);
  }
  const firstTurn = from < ordered.length ? turnOf(ordered[from]) : undefined;
  if (firstTurn !== undefined && firstTurn < checkpoint.nextTurn) throw lateEvent(checkpoint, ordered[from]);

  const state = restoreState(checkpoint);
  const identity: Identity = { options: checkpoint.options, runId: checkpoint.runId, startedId: checkpoint.startedId };
  const { kept } = checkpoint;
  const out: RebuildOutput = { turns: [], findings: base.findings.slice(0, kept.findings), runLevel: [] };
  let next: RebuildCheckpoint | null = null;
  rebuildTurns(state, ordered, from, out, () => (next = takeCheckpoint(state, out, identity, kept.turns)));
  return {
    turns: out.turns,
    findings: finishedFindings(out),
    checkpoint: next,
    rebuiltFromTurn: checkpoint.nextTurn,
    unchanged: { turns: kept.turns, findings: kept.findings },
  };
}

/**
 * Whether the run must be rebuilt in full rather than resumed from `checkpoint`: there is no
 * checkpoint, it has another format version or other options, or one of `newEvents` (the events
 * that arrived since it was taken) has a turn before its `nextTurn`. `options` are the rebuild's,
 * as for `rebuild`.
 */
export function needsFullRebuild(
  checkpoint: RebuildCheckpoint | null | undefined,
  newEvents: readonly TEvent[],
  options: RebuildOptions = {},
): boolean {
  if (!checkpoint || refusal(checkpoint, options)) return true;
  return newEvents.some((event) => (turnOf(event) ?? Infinity) < checkpoint.nextTurn);
}

/** A stored checkpoint read back, or null when it is not one of this format (rebuild in full then). */
export function readRebuildCheckpoint(json: unknown): RebuildCheckpoint | null {
  const parsed = ZRebuildCheckpoint.safeParse(json);
  return parsed.success ? parsed.data : null;
}

interface Identity {
  options: string;
  runId: string;
  startedId: string;
}

function fingerprintOf(options: RebuildOptions): string {
  return fingerprint({ policy: options.policy ?? null, copy: options.copy ?? null });
}

function refusal(checkpoint: RebuildCheckpoint, options: RebuildOptions): RebuildCheckpointError | null {
  if (checkpoint.version !== REBUILD_CHECKPOINT_VERSION) {
    return new RebuildCheckpointError(
      "format",
      `the checkpoint has format version ${JSON.stringify(checkpoint.version)}; this rebuild reads version ${REBUILD_CHECKPOINT_VERSION}`,
    );
  }
  if (checkpoint.options !== fingerprintOf(options)) {
    return new RebuildCheckpointError("options", "the checkpoint was made by a rebuild with other options (policy or copy)");
  }
  return null;
}

/** The previous result must be the one the checkpoint was taken with: `kept` counts turns before nextTurn. */
function baseMismatch(base: ResumeBase): RebuildCheckpointError | null {
  const { checkpoint, turns, findings } = base;
  const { nextTurn, kept } = checkpoint;
  const before = (turn: number | null | undefined) => turn !== null && turn !== undefined && turn < nextTurn;
  const ok =
    base.runId === checkpoint.runId &&
    turns.count >= kept.turns &&
    findings.length >= kept.findings &&
    (kept.turns === 0 ? turns.lastKept === null : before(turns.lastKept)) &&
    (turns.count > kept.turns ? turns.firstRedone !== null && !before(turns.firstRedone) : turns.firstRedone === null) &&
    (kept.findings === 0 || before(findings[kept.findings - 1].turn)) &&
    !before(findings[kept.findings]?.turn);
  return ok ? null : new RebuildCheckpointError("decisions", "the decisions given with the checkpoint are not the ones it was taken with");
}

function lateEvent(checkpoint: RebuildCheckpoint, event: TEvent): RebuildCheckpointError {
  return new RebuildCheckpointError(
    "late_event",
    `event ${JSON.stringify(event.id)} has turn ${turnOf(event)}, before the checkpoint's next turn ${checkpoint.nextTurn}: the run needs a full rebuild`,
  );
}

/**
 * The checkpoint of `state` and of what `out` holds so far, after `turnsBefore` turns that are not
 * in `out` (a resumed tail's kept turns); null before any turn was taken.
 */
function takeCheckpoint(state: RunState, out: RebuildOutput, identity: Identity, turnsBefore = 0): RebuildCheckpoint | null {
  if (state.lastTurn < 0) return null;
  const previous = state.previous;
  const list = previous?.submission?.outcome === "uncertain" ? previous.submission.reminders : undefined;
  return {
    version: REBUILD_CHECKPOINT_VERSION,
    ...identity,
    nextTurn: state.lastTurn + 1,
    kept: { turns: turnsBefore + out.turns.length, findings: out.findings.length },
    policy: state.policy,
    copy: state.copy ?? null,
    facts: state.facts.snapshot(),
    ledger: { ...state.ledger },
    audit: state.audit.snapshot(),
    lastReviewerCheckpoint: state.lastReviewerCheckpoint,
    uncertain: previous && list ? { turn: previous.turn, reminders: list.map((entry) => ({ ...entry })) } : null,
  };
}

/** A fresh state equal to the one the checkpoint was taken of; the checkpoint itself is not changed. */
function restoreState(checkpoint: RebuildCheckpoint): RunState {
  const { policy, uncertain } = checkpoint;
  const copy = checkpoint.copy ?? undefined;
  return {
    policy,
    copy,
    renderer: new ReminderRenderer(resolveCopy(copy)),
    facts: MeterFacts.restore(checkpoint.facts),
    ledger: { ...checkpoint.ledger },
    audit: new EventAudit(policy, checkpoint.audit),
    lastReviewerCheckpoint: checkpoint.lastReviewerCheckpoint,
    previous: uncertain ? { turn: uncertain.turn, submission: { outcome: "uncertain", reminders: uncertain.reminders } } : undefined,
    lastTurn: checkpoint.nextTurn - 1,
  };
}
