import { DENIAL_REASONS, isCancelledByDrop, type TCancelledByDropReason, type TDenialReason } from "@/lib/contracts";

/**
 * The one table of R13's admission denial reasons for people: a few plain words (lists, funnel,
 * lane tooltips) and what the reason means (the turn inspector). The reasons themselves, and their
 * order, are the contract's (`DENIAL_REASONS`); the CSV export writes the reasons as sent.
 */
export const DENIAL_REASON_TEXT: Record<TDenialReason, { label: string; explanation: string }> = {
  auto_review_disabled: { label: "auto review disabled", explanation: "auto review is not allowed by the policy" },
  insufficient_budget: { label: "insufficient budget", explanation: "too few requests left (usable − used < minRequestsLeft)" },
  review_in_progress: { label: "review in progress", explanation: "a dispatch is still in progress" },
};

/**
 * The contract's cancellation reasons that blame a reminder's fate (`CANCELLED_BY_DROP_REASONS`,
 * each a CANDIDATE_CANCELLED_BY_DROP finding, R12), in plain words.
 */
export const CANCELLED_BY_DROP_TEXT: Record<TCancelledByDropReason, string> = {
  reminder_dropped: "reminder dropped",
  reminder_not_delivered: "reminder not delivered",
};

/** A wire word (`gaps_found`, `admission_denied`) as plain text: underscores become spaces. */
export function plainWord(word: string): string {
  return word.replace(/_/g, " ");
}

const isDenialReason = (reason: string): reason is TDenialReason => (DENIAL_REASONS as readonly string[]).includes(reason);

/** A denial reason in a few words ("insufficient_budget" → "insufficient budget"); a reason R13 does not know, as plain words. */
export function denialLabel(reason: string): string {
  return isDenialReason(reason) ? DENIAL_REASON_TEXT[reason].label : plainWord(reason);
}

/** What a denial reason means ("a dispatch is still in progress"); a reason R13 does not know, as sent. */
export function denialExplanation(reason: string): string {
  return isDenialReason(reason) ? DENIAL_REASON_TEXT[reason].explanation : reason;
}

/** Denial reasons in R13's order, then any others (recorded by a runtime) alphabetically. */
export function inDenialOrder(reasons: Iterable<string>): string[] {
  const given = new Set(reasons);
  const known = DENIAL_REASONS.filter((reason) => given.has(reason));
  const others = [...given].filter((reason) => !isDenialReason(reason)).sort();
  return [...known, ...others];
}

/** A cancellation reason in plain words: the drop reasons from their table, any other reason as plain words. */
export function cancelReasonLabel(reason: string): string {
  return isCancelledByDrop(reason) ? CANCELLED_BY_DROP_TEXT[reason] : plainWord(reason);
}
