import type { TReviewerCandidateRow } from "@/lib/contracts";
import { formatNumber } from "@/lib/format";
import { cancelReasonLabel, denialLabel } from "./reasons";

export interface AdmissionText {
  /** granted / denied / none: the word shown, backed by a mark. */
  outcome: "granted" | "denied" | "none";
  /** One short line per reason or fact, e.g. "requests left 6 < 8". */
  details: string[];
}

/** What the runtime recorded for the candidate's admission. */
export function recordedAdmission(row: TReviewerCandidateRow): AdmissionText {
  if (!row.recorded) return { outcome: "none", details: ["no admission recorded"] };
  if (row.recorded.granted) return { outcome: "granted", details: [] };
  return { outcome: "denied", details: row.recorded.reasons.length ? row.recorded.reasons.map(denialLabel) : ["no reason given"] };
}

export interface RuleText extends AdmissionText {
  /**
   * rule: R13 where the recorded admission stands (its turn's facts, dispatches in progress there);
   * rebuild: the rebuild's own admission at the start of the turn (no admission was recorded).
   */
  basis: "rule" | "rebuild" | "none";
}

/** What R13 says on that turn's facts, in the words an auditor checks: "requests left 6 < 8". */
export function ruleAdmission(row: TReviewerCandidateRow): RuleText {
  const { rule } = row;
  if (rule) {
    const budget =
      rule.requestsLeft === null
        ? "requests meter off or not read yet"
        : `requests left ${formatNumber(rule.requestsLeft)} ${rule.requestsLeft >= rule.minRequestsLeft ? "≥" : "<"} ${formatNumber(rule.minRequestsLeft)}`;
    if (rule.granted) return { basis: "rule", outcome: "granted", details: [budget, "no review in progress"] };
    const details = rule.reasons.map((reason) => (reason === "insufficient_budget" ? budget : denialLabel(reason)));
    return { basis: "rule", outcome: "denied", details };
  }
  if (row.rebuilt) {
    const { granted, reasons } = row.rebuilt;
    return { basis: "rebuild", outcome: granted ? "granted" : "denied", details: reasons.map(denialLabel) };
  }
  return { basis: "none", outcome: "none", details: ["no reviewer rule in the policy"] };
}

/** The recorded admission and the rule disagree (the row then carries ADMISSION_RULE_MISMATCH). */
export function admissionDisagrees(row: TReviewerCandidateRow): boolean {
  return row.recorded !== null && row.rule !== null && row.recorded.granted !== row.rule.granted;
}

/** Where the row came from, for people: both, only the agent's record, only the rebuild. */
export function sourceText(source: TReviewerCandidateRow["source"]): string {
  return source === "both" ? "recorded and due" : source === "recorded" ? "recorded, not due by the rule" : "due by the rule, not recorded";
}

/** What in this row made the finding, in one plain line (the code's rule says why it is wrong). */
export function findingEvidence(row: TReviewerCandidateRow, code: string): string {
  const candidate = row.candidateId ? `candidate ${row.candidateId}` : "the candidate";
  const ids = row.dispatches.map((d) => d.dispatchId).join(", ");
  switch (code) {
    case "ADMISSION_RULE_MISMATCH": {
      const recorded = recordedAdmission(row);
      const rule = ruleAdmission(row);
      const said = (t: AdmissionText) => (t.details.length ? `${t.outcome} (${t.details.join(", ")})` : t.outcome);
      return `Recorded ${said(recorded)}; R13 on turn ${row.recorded?.turn ?? row.turn}'s facts says ${said(rule)}.`;
    }
    case "DISPATCH_WITHOUT_ADMISSION":
      return row.recorded
        ? `Dispatched (${ids}) after a denied admission of ${candidate}.`
        : `Dispatched (${ids}) with no admission recorded for ${candidate}${row.suggestion?.status === "delivered" ? "; the review suggestion was delivered, which is not an admission" : ""}.`;
    case "CONCURRENT_DISPATCH":
      return `Dispatches ${ids} of ${candidate} overlap: one started before the other completed.`;
    case "CANDIDATE_CANCELLED_BY_DROP":
      return `Cancelled at turn ${row.cancelled?.turn ?? row.turn} with reason “${cancelReasonLabel(row.cancelled?.reason ?? "")}”${row.suggestion ? `; the turn's review suggestion was ${row.suggestion.status}` : ""}.`;
    default:
      return "";
  }
}
