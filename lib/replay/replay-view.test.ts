import { describe, expect, it } from "vitest";
import { FINDING_CODES, type TFinding, type TReminderKey } from "@/lib/contracts";
import { chipOf } from "./changed-turns";
import { keyMultiples } from "./key-stats";
import { whatIfFindings } from "./what-if-findings";

describe("changed-turn chips say what changed", () => {
  it.each([
    ["the issue's case", ["context: dropped → delivered"], "286 · context ✕→●"],
    ["a new and a gone reminder", ["review: new (delivered)", "edits b1: gone (was dropped)"], "286 · review new ● · edits b1 ✕→gone"],
    ["a stage", ["requests: stage 1 → 2"], "286 · requests stage 1→2"],
    ["wording only", ["time: text (40 → 12 B)"], "286 · time reworded"],
    [
      "more than two changes are counted",
      ["context: dropped → delivered", "context: text (21 → 9 B)", "review: delivered → dropped", "edits b2: new (pending)"],
      "286 · context ✕→● · context reworded +2 more",
    ],
  ])("%s", (_name, changes, text) => {
    const chip = chipOf({ turn: 286, changes });
    expect(chip.text).toBe(text);
    expect(chip.spoken).toBe(`Turn 286: ${changes.join("; ")}`);
  });
});

describe("what-if findings", () => {
  it("leave out every comparison with the agent's record and keep the findings about the events", () => {
    const all: TFinding[] = FINDING_CODES.map((code) => ({ code, turn: 3, detail: code }));
    expect(whatIfFindings(all).map((f) => f.code)).toEqual([
      "INCOMPLETE_TURN",
      "FREE_REQUEST",
      "REMINDER_RESEND",
      "DISPATCH_WITHOUT_ADMISSION",
      "CONCURRENT_DISPATCH",
      "ADMISSION_RULE_MISMATCH",
      "CANDIDATE_CANCELLED_BY_DROP",
      "GLOBAL_STOP_ON_LOCAL_QUOTA",
    ]);
  });
});

describe("per-key small multiples", () => {
  const stats = (dropped: number, key: TReminderKey) => ({
    key,
    candidates: dropped,
    included: 0,
    delivered: 0,
    dropped,
    bytesIncluded: 0,
    dropRate: null,
  });
  it("scale each key on its own, so a big key never flattens a small change", () => {
    const keys = [
      { key: "edits" as const, baseline: stats(11_883, "edits"), whatIf: stats(11_900, "edits") },
      { key: "context" as const, baseline: stats(2, "context"), whatIf: stats(0, "context") },
      { key: "time" as const, baseline: stats(0, "time"), whatIf: stats(0, "time") },
    ];
    expect(keyMultiples(keys, "dropped").map((m) => [m.key, m.scaleMax, m.baselineShare, m.whatIfShare, m.deltaText])).toEqual([
      ["edits", 11_900, 11_883 / 11_900, 1, "+17"],
      ["context", 2, 1, 0, "−2"],
      ["time", 1, 0, 0, "no change"],
    ]);
  });
});
