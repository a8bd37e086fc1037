import type { TDeliveryStatus, TReminderDecision } from "@/lib/contracts";

export interface Rendered {
  key: TReminderDecision["key"];
  subject: string | null;
  kind: TReminderDecision["kind"];
  stage: number;
  text: string;
  bytes: number;
}

/**
 * R8 step 3: the free bytes before fitting, `capacityBytes − requiredBytes` (possibly negative), or
 * infinite when the policy has no context section (`capacityBytes` null).
 */
export function freeBytesBefore(requiredBytes: number, capacityBytes: number | null): number {
  return capacityBytes === null ? Infinity : capacityBytes - requiredBytes;
}

/** R8 step 4's test: a reminder fits when its cost is <= the free bytes left. */
export function fitsIn(bytes: number, freeBytes: number): boolean {
  return bytes <= freeBytes;
}

/**
 * First fit (R8 step 4), the one implementation, straight into the turn's reminder decisions (R10):
 * in presentation order, a reminder whose cost is <= the free bytes left is included, its cost
 * subtracted, and it takes `status` (from the turn's submission); otherwise it is `dropped` with
 * reason `capacity` and the free bytes left when it was considered, and fitting goes on with the
 * next. `freeBytes` may be negative (nothing fits) or infinite (no byte limit). One fresh object per
 * reminder. The rebuild fits every turn with it, and the copy editor's preview fits a turn again
 * with it; `fast-paths.test.ts` checks it against a plain first fit.
 */
export function fitDecisions(
  rendered: readonly Rendered[],
  freeBytes: number,
  status: TDeliveryStatus,
): { reminders: TReminderDecision[]; freeAfter: number } {
  let free = freeBytes;
  const reminders: TReminderDecision[] = [];
  for (const { key, subject, kind, stage, text, bytes } of rendered) {
    if (fitsIn(bytes, free)) {
      free -= bytes;
      reminders.push({ key, subject, kind, stage, text, bytes, status });
    } else {
      reminders.push({ key, subject, kind, stage, text, bytes, status: "dropped", dropReason: "capacity", freeBytes: free });
    }
  }
  return { reminders, freeAfter: free };
}
