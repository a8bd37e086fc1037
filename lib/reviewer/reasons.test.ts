import { describe, expect, it } from "vitest";
import { CANCELLED_BY_DROP_REASONS, DENIAL_REASONS } from "@/lib/contracts";
import {
  CANCELLED_BY_DROP_TEXT,
  cancelReasonLabel,
  DENIAL_REASON_TEXT,
  denialExplanation,
  denialLabel,
  inDenialOrder,
  plainWord,
} from "./reasons";

describe("Reviewer reasons", () => {
  it("has words for exactly the contract's denial and drop reasons", () => {
    expect(Object.keys(DENIAL_REASON_TEXT)).toEqual([...DENIAL_REASONS]);
    expect(Object.keys(CANCELLED_BY_DROP_TEXT)).toEqual([...CANCELLED_BY_DROP_REASONS]);
  });

  it.each([
    ["auto_review_disabled", "auto review disabled", "auto review is not allowed by the policy"],
    ["insufficient_budget", "insufficient budget", "too few requests left (usable − used < minRequestsLeft)"],
    ["review_in_progress", "review in progress", "a dispatch is still in progress"],
    ["custom_reason", "custom reason", "custom_reason"],
  ])("%s: label %j, explanation %j", (reason, label, explanation) => {
    expect(denialLabel(reason)).toBe(label);
    expect(denialExplanation(reason)).toBe(explanation);
  });

  it("orders denial reasons as R13 lists them, then others alphabetically", () => {
    expect(inDenialOrder(["zz_custom", "review_in_progress", "a_custom", "auto_review_disabled", "review_in_progress"])).toEqual([
      "auto_review_disabled",
      "review_in_progress",
      "a_custom",
      "zz_custom",
    ]);
    expect(inDenialOrder([])).toEqual([]);
  });

  it("says cancellation reasons and wire words plainly", () => {
    expect(cancelReasonLabel("reminder_not_delivered")).toBe("reminder not delivered");
    expect(cancelReasonLabel("admission_denied")).toBe("admission denied");
    expect(plainWord("gaps_found")).toBe("gaps found");
  });
});
