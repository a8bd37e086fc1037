import { describe, expect, it } from "vitest";
import { ZPolicy } from "@/lib/contracts";
import { diffPolicies, durationText, parseDuration, policyDraftFrom, policyFromDraft, thresholds, type PolicyDraft } from "./policy-draft";

const base = ZPolicy.parse({
  requests: { limit: 40, deliveryReserve: 4, stages: [0.5, 0.75, 0.9] },
  context: { capacityBytes: 10_000, stages: [0.7, 0.85, 0.95] },
  review: { everyTurns: 10 },
});

const edited = (edit: (d: PolicyDraft) => void) => {
  const draft = policyDraftFrom(base);
  edit(draft);
  return policyFromDraft(draft);
};

describe("policy drafts", () => {
  it("round-trip a policy exactly, with absent sections off", () => {
    const draft = policyDraftFrom(base);
    expect(draft.time.on).toBe(false);
    expect(draft.requests.values.stages).toBe("0.5, 0.75, 0.9");
    expect(policyFromDraft(draft)).toEqual({ policy: base, problems: [] });
  });

  it("switching a section on starts from contract §5's example values", () => {
    const { policy } = edited((d) => (d.time.on = true));
    expect(policy?.time).toEqual({ limitMs: 1_800_000, stages: [0.5, 0.75, 0.9] });
  });

  it.each<[string, (d: PolicyDraft) => void, string, RegExp]>([
    ["descending stages", (d) => (d.requests.values.stages = "0.5, 0.4"), "requests.stages", /strictly ascending: 0.4 does not exceed 0.5/],
    ["a zero stage", (d) => (d.context.values.stages = "0, 0.5"), "context.stages", /expected number > 0/],
    ["no stages", (d) => (d.context.values.stages = " "), "context.stages", /^required$/],
    ["not a number", (d) => (d.requests.values.stages = "0.5, half"), "requests.stages", /got "half"/],
    ["a fraction where a count is due", (d) => (d.requests.values.limit = "40.5"), "requests.limit", /whole number, got "40.5"/],
    ["a zero capacity", (d) => (d.context.values.capacityBytes = "0"), "context.capacityBytes", /./],
    ["a zero checkpoint interval", (d) => (d.review.values.everyTurns = "0"), "review.everyTurns", /./],
  ])("names the field of %s", (_name, edit, path, message) => {
    const { policy, problems } = edited(edit);
    expect(policy).toBeNull();
    expect(problems).toEqual([{ path, message: expect.stringMatching(message) }]);
  });

  it("optional fields may be left empty (defaults apply)", () => {
    const { policy, problems } = edited((d) => {
      d.requests.values.deliveryReserve = "";
      d.review.values.everyTurns = "";
    });
    expect(problems).toEqual([]);
    expect(policy?.requests?.deliveryReserve).toBe(0);
    expect(policy?.review).toEqual({});
  });
});

describe("policy diff", () => {
  it("lists changed fields and sections switched on or off", () => {
    const after = ZPolicy.parse({
      requests: { limit: 40, deliveryReserve: 4, stages: [0.6, 0.8] },
      time: { limitMs: 60_000, stages: [0.5] },
      review: { everyTurns: 10 },
    });
    expect(diffPolicies(base, after)).toEqual([
      { path: "requests.stages", before: "0.5, 0.75, 0.9", after: "0.6, 0.8" },
      { path: "time", before: "off", after: "on" },
      { path: "context", before: "on", after: "off" },
    ]);
    expect(diffPolicies(base, base)).toEqual([]);
  });
});

describe("times in minutes, exact values kept", () => {
  it.each([
    [1_800_000, "30"],
    [90_000, "1.5"],
    [600_000, "10"],
    [6, "0.0001"],
    [1_234_567, "1234567 ms"],
    [1, "1 ms"],
  ])("%d ms reads %s and back", (ms, text) => {
    expect(durationText(ms)).toBe(text);
    expect(parseDuration(text)).toBe(ms);
  });

  it.each<[string, number | RegExp]>([
    ["30", 1_800_000],
    [" 1.5 min ", 90_000],
    ["90000 ms", 90_000],
    ["90 s", 90_000],
    ["1 h", 3_600_000],
    [".5", 30_000],
    ["half", /expected minutes/],
    ["0.5 ms", /not a whole number of milliseconds/],
  ])("typed %j", (text, expected) => {
    const parsed = parseDuration(text);
    if (typeof expected === "number") expect(parsed).toBe(expected);
    else expect(parsed).toMatch(expected);
  });

  it.each([
    { limitMs: 1_800_000, stages: [0.5, 0.75, 0.9] },
    { limitMs: 1_234_567, stages: [0.5] },
    { limitMs: 61_000, stages: [0.25] },
  ])("a time policy round-trips exactly through the minutes the editor shows (%#)", (time) => {
    const policy = ZPolicy.parse({ time, review: { afterMs: time.limitMs } });
    const draft = policyDraftFrom(policy);
    expect(policyFromDraft(draft)).toEqual({ policy, problems: [] });
  });

  it("names the field of a time it cannot read", () => {
    const { policy, problems } = edited((d) => {
      d.time.on = true;
      d.time.values.limitMs = "soon";
    });
    expect(policy).toBeNull();
    expect(problems).toEqual([{ path: "time.limitMs", message: expect.stringMatching(/expected minutes/) }]);
  });

  it("the diff names times in minutes", () => {
    const after = ZPolicy.parse({ ...base, review: { everyTurns: 10, afterMs: 90_000 } });
    expect(diffPolicies(base, after)).toEqual([{ path: "review.afterMs", before: "not set", after: "1.5 min" }]);
  });
});

describe("stage thresholds in whole units", () => {
  it.each<[string, Parameters<typeof thresholds>[0], Record<string, string>, [string, string][]]>([
    [
      "the issue's case: 0.75 of 366 requests is 274.5, reached at 275",
      "requests",
      { limit: "400", deliveryReserve: "34", stages: "0.5, 0.75" },
      [
        ["183 requests", "exactly 183 requests (0.5 × 366)"],
        ["275 requests", "exactly 274.5 requests (0.75 × 366)"],
      ],
    ],
    // 0.7 × 10 is 7.000000000000001 in doubles, yet 7/10 >= 0.7: stage 1 at 7 edits, as R2 compares.
    [
      "a threshold a hair above a whole count",
      "edits",
      { perBlockLimit: "10", stages: "0.7" },
      [["7 edits", "exactly 7 edits (0.7 × 10)"]],
    ],
    ["bytes", "context", { capacityBytes: "10001", stages: "0.5" }, [["5,001 B", "exactly 5,000.5 bytes (0.5 × 10,001)"]]],
    [
      "time, in minutes",
      "time",
      { limitMs: "30", stages: "0.5, 0.9" },
      [
        ["15 min", "exactly 900,000 ms (0.5 × 1,800,000)"],
        ["27 min", "exactly 1,620,000 ms (0.9 × 1,800,000)"],
      ],
    ],
    ["no denominator yet", "requests", { limit: "", stages: "0.5" }, []],
    ["a stage that is not a number", "edits", { perBlockLimit: "4", stages: "0.5, x" }, []],
  ])("%s", (_name, section, values, expected) => {
    expect(thresholds(section, values).map((t) => [t.text, t.exact])).toEqual(expected);
  });
});
