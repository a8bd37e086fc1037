import { z } from "zod";
import { ZReminderKey } from "./reminders";
import { ZReminderCounts, ZRunListQuery } from "./api";
import { zIntParam } from "./params";
import { FINDING_CODES, ZFinding, ZTurnDecision } from "./decisions";
import { ZRunTimeline } from "./timeline";

/** Which runs a replay covers: the runs list's filters. */
export const ZReplayFilters = ZRunListQuery.pick({ status: true, agent: true, model: true, q: true, from: true, to: true }).partial();

/** Body of `POST /api/v1/replay`: which runs (the runs list's filters) and which versions to try. */
export const ZReplayRequest = z
  .object({
    copyVersionId: z.string().min(1).optional(),
    policyVersionId: z.string().min(1).optional(),
    filters: ZReplayFilters.default({}),
    /** At most this many runs, newest first. */
    maxRuns: z.number().int().min(1).max(5000).default(500),
  })
  .refine((r) => r.copyVersionId !== undefined || r.policyVersionId !== undefined, {
    error: "choose a copy version, a policy version, or both",
    path: ["copyVersionId"],
  });

/** Per reminder key: how many candidates were made, delivered, dropped, and the bytes they cost. */
export const ZKeyStats = z.object({
  key: ZReminderKey,
  candidates: z.number(),
  /** Included in the request (any status but dropped). */
  included: z.number(),
  delivered: z.number(),
  dropped: z.number(),
  /** Bytes of the included reminders (what they took from the request's capacity). */
  bytesIncluded: z.number(),
  /** dropped / candidates; null without candidates. */
  dropRate: z.number().nullable(),
});
export type TKeyStats = z.infer<typeof ZKeyStats>;

/** The copy a group of recorded runs was rendered with. */
export const ZFollowUpCopy = z.object({
  /** First 10 hex digits of the sha256 of the resolved copy's canonical JSON. */
  fingerprint: z.string(),
  /** A saved copy version's name (the newest with this copy), "Default copy", or "Run's own copy · <fingerprint>". */
  label: z.string(),
  copyVersionId: z.string().nullable(),
  runs: z.number(),
});

export const ZFollowUpKey = z.object({
  key: ZReminderKey,
  delivered: z.number(),
  followed: z.number(),
  rate: z.number().nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
});

export const ZFollowUpGroup = z.object({ copy: ZFollowUpCopy, keys: z.array(ZFollowUpKey) });

export const ZReplayResult = z.object({
  runs: z.number(),
  turns: z.number(),
  /** Per key, the runs' own copy and policy (baseline) next to the what-if. */
  keys: z.array(z.object({ key: ZReminderKey, baseline: ZKeyStats, whatIf: ZKeyStats })),
  /** Runs whose decisions changed, with their changed turns (at most 200 listed per run). */
  changedRuns: z.array(
    z.object({
      runId: z.string(),
      changedTurns: z.number(),
      /** Changed turns where a reminder appeared, disappeared, or changed status or stage (not only its text). */
      fateChangedTurns: z.number(),
      /** At most 200, in turn order, fate changes first. */
      turns: z.array(z.object({ turn: z.number(), changes: z.array(z.string()), fate: z.boolean() })),
    }),
  ),
  /**
   * Contract §8 on the recorded runs, per copy they were rendered with (their own copy over the
   * default, key by key) and per key: how often a delivered reminder was followed by the related
   * model action — association, not effect — with a 95% Wilson interval. Groups by runs, most
   * first, then by label; keys always all five, in presentation order.
   */
  followUp: z.array(ZFollowUpGroup),
});

export const ZReplayJob = z.object({
  id: z.string(),
  status: z.enum(["running", "done", "cancelled", "failed"]),
  copyVersionId: z.string().nullable(),
  policyVersionId: z.string().nullable(),
  /** The runs list's filters the runs were chosen by. */
  filters: ZReplayFilters,
  progress: z.object({ totalRuns: z.number(), doneRuns: z.number(), totalTurns: z.number(), doneTurns: z.number() }),
  result: ZReplayResult.nullable(),
  error: z.string().nullable(),
  /**
   * True when an earlier finished job with the same inputs answered (nothing was recomputed). A
   * request joining a job of the same inputs still queued or running gets that job, not reused.
   */
  reused: z.boolean(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});

/** Query of `GET /api/v1/replay/matching`: the runs list's filters and the run limit a replay would use. */
export const ZReplayMatchingQuery = ZReplayFilters.extend({ maxRuns: zIntParam(1, 5000).default(500) });

/**
 * `GET /api/v1/replay/matching`: how many runs and turns a replay with these filters would rebuild,
 * from the runs' stored counts (no event is read).
 */
export const ZReplayMatching = z.object({
  /** Runs the replay would take: the newest `maxRuns` matching runs. */
  runs: z.number(),
  /** Their turns (each run's highest turn + 1). */
  turns: z.number(),
  /** True when more runs match than `maxRuns` (the oldest are left out). */
  more: z.boolean(),
  maxRuns: z.number(),
});

/** A replay in the list of recent replays: the job without its result. */
export const ZReplaySummary = ZReplayJob.omit({ result: true, reused: true });

/** `GET /api/v1/replay`: the project's most recent replays, newest first. */
export const ZReplayList = z.object({ replays: z.array(ZReplaySummary) });

/** `GET /api/v1/replay/:id/runs/:runId/turns/:turn`: one turn of a run, its own decision next to the what-if. */
export const ZReplayTurn = z.object({
  jobId: z.string(),
  runId: z.string(),
  turn: z.number(),
  copyVersionId: z.string().nullable(),
  policyVersionId: z.string().nullable(),
  /** The run's stored decision (its own copy and policy); null when that rebuild has no such turn. */
  baseline: ZTurnDecision.nullable(),
  /** The rebuild with the job's copy and/or policy. */
  whatIf: ZTurnDecision.nullable(),
  /** What differs in this turn (as in the job's changed turns); empty when nothing does. */
  changes: z.array(z.string()),
  baselineFindings: z.array(ZFinding),
  whatIfFindings: z.array(ZFinding),
  /** The run's nearest changed turns before and after this one (for ← → navigation). */
  previousChanged: z.number().nullable(),
  nextChanged: z.number().nullable(),
});

/**
 * `GET /api/v1/replay/:id/runs/:runId/timeline`: a run's what-if under the job's versions as the run
 * comparison draws a run (docs/compare.md): its whole-run timeline (stage and limit lines of the
 * job's policy when it has one, else the run's own) and the counts a run's header shows. Its
 * findings leave out those that compare with the agent's record (no agent ran with the what-if).
 */
export const ZReplayWhatIfRun = z.object({
  jobId: z.string(),
  runId: z.string(),
  copyVersionId: z.string().nullable(),
  policyVersionId: z.string().nullable(),
  rebuiltTurns: z.number().int().min(0),
  reminders: ZReminderCounts,
  findings: z.number().int().min(0),
  findingsByCode: z.partialRecord(z.enum(FINDING_CODES), z.number()),
  timeline: ZRunTimeline,
});

export type TReplayFilters = z.infer<typeof ZReplayFilters>;
export type TReplayRequest = z.infer<typeof ZReplayRequest>;
export type TReplayResult = z.infer<typeof ZReplayResult>;
export type TReplayJob = z.infer<typeof ZReplayJob>;
export type TFollowUpGroup = z.infer<typeof ZFollowUpGroup>;
export type TReplayTurn = z.infer<typeof ZReplayTurn>;
export type TReplayMatching = z.infer<typeof ZReplayMatching>;
export type TReplaySummary = z.infer<typeof ZReplaySummary>;
export type TReplayList = z.infer<typeof ZReplayList>;
export type TReplayWhatIfRun = z.infer<typeof ZReplayWhatIfRun>;
