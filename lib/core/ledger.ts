import type { TReminderKey } from "@/lib/contracts";

/** Keys whose delivery the ledger remembers: notices and the review suggestion (R5, R7, R10). */
export type LedgerKey = Exclude<TReminderKey, "edits">;

/** Per run, the stage last delivered (or possibly delivered) per key; starts at 0 for every key. */
export type Ledger = Record<LedgerKey, number>;

export function emptyLedger(): Ledger {
  return { requests: 0, time: 0, context: 0, review: 0 };
}
