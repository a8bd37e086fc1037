import { describe, expect, it } from "vitest";
import { ZPolicy } from "@/lib/contracts";
import { diffPolicies, policyDraftFrom, policyFromDraft, type PolicyDraft } from "./policy-draft";

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
