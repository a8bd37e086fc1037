import type { TDeliveryStatus, TReminderDecision } from "@/lib/contracts";

export interface Rendered {
  key: TReminderDecision["key"];
  subject: string | null;
  kind: TReminderDecision["kind"];
  stage: number;
  text: string;
  bytes: number;
}

export interface Fitted extends Rendered {
  included: boolean;
  /** Free bytes left when a dropped reminder was considered. */
  freeBytes?: number;
}

/**
 * First fit (R8): in presentation order, a reminder whose cost is <= the free bytes left is
 * included and its cost subtracted; otherwise it is dropped and fitting goes on with the next.
 * `freeBytes` may be negative (nothing fits) or infinite (no byte limit).
 */
export function fitReminders(rendered: readonly Rendered[], freeBytes: number): { fitted: Fitted[]; freeAfter: number } {
  let free = freeBytes;
  const fitted = rendered.map((reminder): Fitted => {
    if (reminder.bytes <= free) {
      free -= reminder.bytes;
      return { ...reminder, included: true };
    }
    return { ...reminder, included: false, freeBytes: free };
  });
  return { fitted, freeAfter: free };
}

/**
 * First fit (R8) straight into the turn's reminder decisions (R10), one fresh object per reminder:
 * an included reminder takes `status` (from the turn's submission); a dropped one is `dropped`
 * with reason `capacity` and the free bytes left when it was considered. The same decisions as
 * fitting with `fitReminders` and then giving each reminder its status.
 */
export function fitDecisions(
  rendered: readonly Rendered[],
  freeBytes: number,
  status: TDeliveryStatus,
): { reminders: TReminderDecision[]; freeAfter: number } {
  let free = freeBytes;
  const reminders: TReminderDecision[] = [];
  for (const { key, subject, kind, stage, text, bytes } of rendered) {
    if (bytes <= free) {
      free -= bytes;
      reminders.push({ key, subject, kind, stage, text, bytes, status });
    } else {
      reminders.push({ key, subject, kind, stage, text, bytes, status: "dropped", dropReason: "capacity", freeBytes: free });
    }
  }
  return { reminders, freeAfter: free };
}
