import { describe, expect, it } from "vitest";
import type { TReviewerFunnel } from "@/lib/contracts";
import { excessNote, prepareReviewerFunnel } from "./funnel-chart";

const funnel: TReviewerFunnel = {
  candidates: { total: 42, recorded: 41, rebuiltDue: 40, recordedNotDue: 2, dueNotRecorded: 1 },
  admissions: {
    recorded: 40,
    granted: 30,
    denied: 10,
    deniedByReason: { review_in_progress: 5, insufficient_budget: 4, custom: 1 },
    againstRule: 2,
  },
  dispatches: { total: 31, completed: 29, running: 2 },
  cancelled: { total: 12, byReason: { admission_denied: 10, reminder_dropped: 2 } },
  violations: { ADMISSION_RULE_MISMATCH: 2, DISPATCH_WITHOUT_ADMISSION: 1, CANDIDATE_CANCELLED_BY_DROP: 2 },
};

describe("prepareReviewerFunnel", () => {
  it("orders the stages and sizes their bars against the widest", () => {
    const chart = prepareReviewerFunnel(funnel);
    expect(chart.stages.map((s) => [s.key, s.count, Number(s.share.toFixed(3))])).toEqual([
      ["candidates", 42, 1],
      ["admitted", 30, 0.714],
      ["dispatched", 31, 0.738],
      ["completed", 29, 0.69],
    ]);
    expect(chart.violations).toBe(5);
  });

  it("breaks denials down by reason in R13's order, then unknown reasons", () => {
    const admitted = prepareReviewerFunnel(funnel).stages[1];
    expect(admitted.parts.map((p) => `${p.nested ? "  " : ""}${p.label} ${p.count}`)).toEqual([
      "denied 10",
      "  insufficient budget 4",
      "  review in progress 5",
      "  custom 1",
      "no admission recorded 2",
      "against the rule 2",
    ]);
    expect(admitted.parts.at(-1)).toMatchObject({ kind: "violation", code: "ADMISSION_RULE_MISMATCH" });
  });

  it("flags cancellations that blame a reminder as violations (R12)", () => {
    const { cancelled } = prepareReviewerFunnel(funnel);
    expect(cancelled.total).toBe(12);
    expect(cancelled.parts).toEqual([
      { label: "admission denied", count: 10, kind: "exit" },
      { label: "reminder dropped", count: 2, kind: "violation", code: "CANDIDATE_CANCELLED_BY_DROP" },
    ]);
  });

  it("draws nothing wide for an empty funnel", () => {
    const empty = prepareReviewerFunnel({
      candidates: { total: 0, recorded: 0, rebuiltDue: 0, recordedNotDue: 0, dueNotRecorded: 0 },
      admissions: { recorded: 0, granted: 0, denied: 0, deniedByReason: {}, againstRule: 0 },
      dispatches: { total: 0, completed: 0, running: 0 },
      cancelled: { total: 0, byReason: {} },
      violations: {},
    });
    expect(empty.stages.every((s) => s.share === 0)).toBe(true);
    expect(empty.violations).toBe(0);
  });
});

describe("excessNote", () => {
  const none = { violations: {} };
  it("says nothing when a stage narrows or keeps its count", () => {
    expect(excessNote({ key: "admitted", count: 5 }, { key: "dispatched", count: 5 }, none)).toBeUndefined();
    expect(excessNote({ key: "candidates", count: 9 }, { key: "admitted", count: 3 }, none)).toBeUndefined();
  });
  it("explains extra dispatches by the dispatches without admission, or by repeated dispatches", () => {
    expect(
      excessNote({ key: "admitted", count: 35 }, { key: "dispatched", count: 37 }, { violations: { DISPATCH_WITHOUT_ADMISSION: 2 } }),
    ).toBe(
      "37 dispatched > 35 admitted: 2 dispatches more than admissions granted; 2 dispatches had no granted admission before them (DISPATCH_WITHOUT_ADMISSION, a violation of R12)",
    );
    expect(excessNote({ key: "admitted", count: 1 }, { key: "dispatched", count: 2 }, none)).toBe(
      "2 dispatched > 1 admitted: 1 dispatch more than admissions granted; no dispatch lacked an admission, so some candidates were dispatched more than once",
    );
    expect(excessNote({ key: "dispatched", count: 1 }, { key: "completed", count: 3 }, none)).toBe(
      "3 completed > 1 dispatched: 2 completions more than dispatches",
    );
  });
});
