import { isCancelledByDrop, type TFindingCode, type TReviewerFunnel } from "@/lib/contracts";
import { cancelReasonLabel, denialLabel, inDenialOrder } from "./reasons";

/** One count that leaves or qualifies a funnel stage, e.g. "denied: review in progress 27". */
export interface FunnelPart {
  label: string;
  count: number;
  /** exit: leaves the funnel here; info: a breakdown; violation: a rule was broken (contract §7). */
  kind: "exit" | "info" | "violation";
  /** The finding code behind a violation count. */
  code?: TFindingCode;
  /** Indented under the part before it (a reason of a denial). */
  nested?: boolean;
}

/** One stage of the Reviewer funnel, drawn as a labelled bar of `share` of the widest stage. */
export interface FunnelStage {
  key: "candidates" | "admitted" | "dispatched" | "completed";
  label: string;
  count: number;
  /** count / the largest stage count, in [0, 1] (0 when every stage is empty). */
  share: number;
  parts: FunnelPart[];
  /**
   * Set when the stage counts more than the stage before it (a funnel should only narrow): what the
   * difference is and which findings account for it, e.g. "37 dispatched > 35 admitted: …".
   */
  excess?: string;
}

export interface FunnelChart {
  stages: FunnelStage[];
  /** Cancelled candidates, by reason; reasons that blame a reminder are violations (R12). */
  cancelled: { total: number; parts: FunnelPart[] };
  /** Total violations across codes. */
  violations: number;
}

/**
 * Prepares the funnel for drawing: candidate → admission granted → dispatched → completed, each with
 * what left or qualified it. Pure; the component only draws bars and labels.
 */
export function prepareReviewerFunnel(funnel: TReviewerFunnel): FunnelChart {
  const { candidates, admissions, dispatches, cancelled, violations } = funnel;
  const v = (code: TFindingCode) => violations[code] ?? 0;

  const deniedParts: FunnelPart[] = inDenialOrder(Object.keys(admissions.deniedByReason))
    .filter((reason) => admissions.deniedByReason[reason] > 0)
    .map((reason) => ({ label: denialLabel(reason), count: admissions.deniedByReason[reason], kind: "exit", nested: true }));

  const raw: Omit<FunnelStage, "share">[] = [
    {
      key: "candidates",
      label: "Candidates",
      count: candidates.total,
      parts: [
        { label: "recorded by the agent", count: candidates.recorded, kind: "info" },
        { label: "due by the rule (rebuild)", count: candidates.rebuiltDue, kind: "info" },
        { label: "recorded but not due", count: candidates.recordedNotDue, kind: "exit" },
        { label: "due but not recorded", count: candidates.dueNotRecorded, kind: "exit" },
      ],
    },
    {
      key: "admitted",
      label: "Admission granted",
      count: admissions.granted,
      parts: [
        { label: "denied", count: admissions.denied, kind: "exit" },
        ...deniedParts,
        { label: "no admission recorded", count: Math.max(0, candidates.total - admissions.recorded), kind: "exit" },
        { label: "against the rule", count: admissions.againstRule, kind: "violation", code: "ADMISSION_RULE_MISMATCH" },
      ],
    },
    {
      key: "dispatched",
      label: "Dispatched",
      count: dispatches.total,
      parts: [
        { label: "without admission", count: v("DISPATCH_WITHOUT_ADMISSION"), kind: "violation", code: "DISPATCH_WITHOUT_ADMISSION" },
        { label: "while another ran", count: v("CONCURRENT_DISPATCH"), kind: "violation", code: "CONCURRENT_DISPATCH" },
      ],
    },
    {
      key: "completed",
      label: "Completed",
      count: dispatches.completed,
      parts: [{ label: "still running", count: dispatches.running, kind: "info" }],
    },
  ];
  const widest = Math.max(0, ...raw.map((s) => s.count));
  const stages = raw.map((stage, i) => {
    const excess = i > 0 ? excessNote(raw[i - 1], stage, funnel) : undefined;
    return { ...stage, share: widest === 0 ? 0 : stage.count / widest, ...(excess ? { excess } : {}) };
  });

  const cancelledParts: FunnelPart[] = Object.entries(cancelled.byReason)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([reason, count]) =>
      isCancelledByDrop(reason)
        ? { label: cancelReasonLabel(reason), count, kind: "violation", code: "CANDIDATE_CANCELLED_BY_DROP" }
        : { label: cancelReasonLabel(reason), count, kind: "exit" },
    );

  return {
    stages,
    cancelled: { total: cancelled.total, parts: cancelledParts },
    violations: Object.values(violations).reduce((sum, n) => sum + (n ?? 0), 0),
  };
}

const STAGE_WORDS: Record<FunnelStage["key"], string> = {
  candidates: "candidates",
  admitted: "admitted",
  dispatched: "dispatched",
  completed: "completed",
};

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/**
 * Why a stage counts more than the one before it, in words, or undefined when it does not. The
 * dispatches are the case the rules explain: a dispatch needs a granted admission for its candidate
 * (R12: DISPATCH_WITHOUT_ADMISSION), and each candidate's admission is granted at most once, so
 * dispatches past the admissions are dispatches without one, or more than one dispatch of a candidate.
 */
export function excessNote(
  previous: Pick<FunnelStage, "key" | "count">,
  stage: Pick<FunnelStage, "key" | "count">,
  funnel: Pick<TReviewerFunnel, "violations">,
): string | undefined {
  if (stage.count <= previous.count) return undefined;
  const extra = stage.count - previous.count;
  const head = `${stage.count.toLocaleString("en-US")} ${STAGE_WORDS[stage.key]} > ${previous.count.toLocaleString("en-US")} ${STAGE_WORDS[previous.key]}`;
  if (stage.key === "dispatched") {
    const without = funnel.violations.DISPATCH_WITHOUT_ADMISSION ?? 0;
    const because =
      without > 0
        ? `${plural(without, "dispatch", "dispatches")} had no granted admission before ${without === 1 ? "it" : "them"} (DISPATCH_WITHOUT_ADMISSION, a violation of R12)`
        : "no dispatch lacked an admission, so some candidates were dispatched more than once";
    return `${head}: ${plural(extra, "dispatch", "dispatches")} more than admissions granted; ${because}`;
  }
  if (stage.key === "completed") return `${head}: ${plural(extra, "completion", "completions")} more than dispatches`;
  return `${head}: ${plural(extra, "more", "more")} than the step before`;
}
