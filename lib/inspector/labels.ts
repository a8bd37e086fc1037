import type { TReminderKey } from "@/lib/contracts";

/** "requests", "edits · b1": a reminder's (key, subject) for people. */
export function pairLabel(key: TReminderKey, subject: string | null | undefined): string {
  return subject === null || subject === undefined ? key : `${key} · ${subject}`;
}

/** A reminder's stage for people: a review suggestion's stage is its checkpoint k (R7). */
export function stageLabel(key: TReminderKey, stage: number): string {
  return key === "review" ? `checkpoint ${stage}` : `stage ${stage}`;
}

/** The clock part of an RFC 3339 time as sent ("22:44:03.998"), for dense event lists; the whole text otherwise. */
export function shortTime(ts: string): string {
  const m = /T(\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?)/.exec(ts);
  return m ? m[1] : ts;
}
