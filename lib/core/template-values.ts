import { percentOf } from "./stages";

/**
 * The placeholder values of each key's templates (contract §5), from the facts of one turn. The
 * rebuild renders candidates with these, and the copy editor's preview renders drafts with the same
 * functions, so a preview shows exactly the text a replay would produce.
 */
export type TemplateValues = Readonly<Record<string, number | string>>;

export function requestsValues(used: number, limit: number, reserve: number, stage: number): TemplateValues {
  const usable = limit - reserve;
  return { used, limit, reserve, usable, remaining: Math.max(0, usable - used), percent: percentOf(used, usable), stage };
}

export function timeValues(elapsedMs: number, limitMs: number, stage: number): TemplateValues {
  return {
    elapsedMs,
    limitMs,
    elapsedMin: minutes(elapsedMs),
    limitMin: minutes(limitMs),
    remainingMin: minutes(Math.max(0, limitMs - elapsedMs)),
    percent: percentOf(elapsedMs, limitMs),
    stage,
  };
}

export function contextValues(requiredBytes: number, capacityBytes: number, stage: number): TemplateValues {
  return {
    requiredBytes,
    capacityBytes,
    freeBytes: capacityBytes - requiredBytes,
    percent: percentOf(requiredBytes, capacityBytes),
    stage,
  };
}

export function editsValues(blockId: string, used: number, limit: number, stage: number): TemplateValues {
  return { blockId, used, limit, remaining: Math.max(0, limit - used), percent: percentOf(used, limit), stage };
}

export function reviewValues(checkpoint: number, turn: number): TemplateValues {
  return { checkpoint, turn };
}

/** Minutes are floor(ms / 60000). */
function minutes(ms: number): number {
  return Math.floor(ms / 60000);
}
