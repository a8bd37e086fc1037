import { describe, expect, it } from "vitest";
import { countBySeverity, describeFindings, worstSeverity } from "./worst-severity";

describe("worstSeverity", () => {
  it("is null without findings", () => {
    expect(worstSeverity({})).toBeNull();
    expect(worstSeverity({ STAGE_MISMATCH: 0 })).toBeNull();
  });

  it("picks violation over mismatch over notice", () => {
    expect(worstSeverity({ FREE_REQUEST: 3 })).toBe("notice");
    expect(worstSeverity({ FREE_REQUEST: 3, MISSING_REMINDER: 1 })).toBe("mismatch");
    expect(worstSeverity({ FREE_REQUEST: 3, MISSING_REMINDER: 1, CONCURRENT_DISPATCH: 1 })).toBe("violation");
  });
});

describe("countBySeverity and describeFindings", () => {
  const byCode = { FREE_REQUEST: 3, INCOMPLETE_TURN: 1, MISSING_REMINDER: 2, STAGE_MISMATCH: 5, CONCURRENT_DISPATCH: 1 };

  it("sums the codes of each severity, most serious first", () => {
    expect(countBySeverity(byCode)).toEqual([
      { severity: "violation", count: 1 },
      { severity: "mismatch", count: 7 },
      { severity: "notice", count: 4 },
    ]);
  });

  it("lists codes most serious first, then by count", () => {
    expect(describeFindings(byCode)).toEqual([
      "CONCURRENT_DISPATCH (violation) ×1",
      "STAGE_MISMATCH (mismatch) ×5",
      "MISSING_REMINDER (mismatch) ×2",
      "FREE_REQUEST (notice) ×3",
      "INCOMPLETE_TURN (notice) ×1",
    ]);
  });
});
