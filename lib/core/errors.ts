/** The events given to the core cannot form one run. Carries no transport details. */
export class RunInputError extends Error {
  constructor(
    message: string,
    readonly eventId?: string,
  ) {
    super(message);
    this.name = "RunInputError";
  }
}

/** Why a rebuild checkpoint cannot be resumed from: the run must be rebuilt in full. */
export type RebuildCheckpointRefusal = "format" | "options" | "decisions" | "late_event";

/**
 * `resumeRebuild` refuses its checkpoint: another format version, other options, decisions that
 * are not the checkpoint's, or an event before its next turn. Rebuild the run in full instead.
 */
export class RebuildCheckpointError extends Error {
  constructor(
    readonly reason: RebuildCheckpointRefusal,
    message: string,
  ) {
    super(message);
    this.name = "RebuildCheckpointError";
  }
}
