import { describe, expect, it } from "vitest";
import { ZEvent, type TEvent } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { defaultEtfPolicy, generateEtfRun, type EtfRunOptions } from "@/lib/demo/etf-run";
import { TIMELINE_EVENT_TYPES } from "@/lib/derived/timeline/build-timeline";
import { funnelCounts, funnelFromCounts, hasViolations, REVIEWER_EVENT_TYPES, reviewerAudit, type FunnelCounts } from "./audit";
import { reviewerFunnel } from "./funnel";
import { reviewerRows } from "./rows";

const tight = { ...defaultEtfPolicy(120), reviewer: { autoReviewAllowed: true, minRequestsLeft: 60 } };
const RUNS: EtfRunOptions[] = [
  { runId: "a", seed: 1, turns: 150, anomalies: true },
  { runId: "b", seed: 2, turns: 120, anomalies: true, policy: tight },
  { runId: "c", seed: 3, turns: 90, anomalies: true, anomalyRepeats: 2 },
  { runId: "d", seed: 4, turns: 60 },
];

const runs = RUNS.map((options) => {
  const events: TEvent[] = generateEtfRun(options).events.map((event) => ZEvent.parse(event));
  return { events, decisions: rebuild(events) };
});

/** Counts added key by key, as the SQL SUM over the stored counts does. */
function sum(counts: readonly FunnelCounts[]): [string, number][] {
  const total = new Map<string, number>();
  for (const one of counts) for (const [key, n] of Object.entries(one)) total.set(key, (total.get(key) ?? 0) + n);
  return [...total];
}

describe("the stored Reviewer audit of a run", () => {
  it("has the rows the audit computes from all the run's events, in the same order", () => {
    for (const { events, decisions } of runs) {
      const audit = reviewerAudit(events, decisions);
      expect(audit.rows).toEqual(reviewerRows(events, decisions));
      // Reversed arrival order changes nothing: the rows walk the events in run order.
      expect(reviewerAudit([...events].reverse(), decisions).rows).toEqual(audit.rows);
    }
    expect(runs.some(({ events, decisions }) => reviewerAudit(events, decisions).rows.some(hasViolations))).toBe(true);
  });

  it("has funnel counts that add up across runs to the funnel over all their rows, and the same for violations only", () => {
    const audits = runs.map(({ events, decisions }) => reviewerAudit(events, decisions));
    const rows = audits.flatMap((audit) => audit.rows);
    const all = reviewerFunnel(rows);
    expect(all.candidates.total).toBeGreaterThan(20);
    expect(Object.keys(all.admissions.deniedByReason).length).toBeGreaterThan(0);
    expect(Object.keys(all.violations).length).toBeGreaterThan(1);
    expect(funnelFromCounts(sum(audits.map((audit) => audit.funnel)))).toEqual(all);
    expect(funnelFromCounts(sum(audits.map((audit) => audit.violationsFunnel)))).toEqual(reviewerFunnel(rows.filter(hasViolations)));
    for (const audit of audits) expect(funnelFromCounts(Object.entries(audit.funnel))).toEqual(reviewerFunnel(audit.rows));
  });

  it("leaves zero counts out and reads absent ones as zero", () => {
    expect(funnelCounts(reviewerFunnel([]))).toEqual({});
    expect(funnelFromCounts([])).toEqual(reviewerFunnel([]));
    const funnel = reviewerFunnel(reviewerAudit(runs[0].events, runs[0].decisions).rows);
    const counts = funnelCounts(funnel);
    expect(counts["candidates.total"]).toBe(funnel.candidates.total);
    for (const [reason, n] of Object.entries(funnel.admissions.deniedByReason))
      expect(counts[`admissions.deniedByReason.${reason}`]).toBe(n);
    expect(Object.values(counts).every((n) => n > 0)).toBe(true);
  });

  it.each([
    ["nothing"],
    ["candidates"],
    ["candidates.nope"],
    ["candidates.total.x"],
    ["admissions.deniedByReason"],
    ["violations.NOT_A_CODE"],
  ])("refuses a count no funnel has: %s", (key) => {
    expect(() => funnelFromCounts([[key, 1]])).toThrow();
  });

  it("keeps a reason with dots whole", () => {
    expect(funnelFromCounts([["cancelled.byReason.a.b", 2]]).cancelled.byReason).toEqual({ "a.b": 2 });
  });
});

describe("REVIEWER_EVENT_TYPES", () => {
  // The rebuild's resume reads these types once for both the Reviewer rows and the whole-run timeline.
  it("holds every type the run page's timeline reads, and the requests readings R13's budget condition needs", () => {
    for (const type of TIMELINE_EVENT_TYPES) expect(REVIEWER_EVENT_TYPES.has(type), type).toBe(true);
    expect(REVIEWER_EVENT_TYPES.has("meter.requests")).toBe(true);
    expect(REVIEWER_EVENT_TYPES.has("model.action")).toBe(false);
  });
});
