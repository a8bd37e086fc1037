import { describe, expect, it } from "vitest";
import { mondayOf, reviewTrends, saysWrong, verdictChart, type VerdictCount } from "./weeks";

describe("review weeks", () => {
  it.each([
    ["2026-11-23", "2026-11-23"], // a Monday is its own week's
    ["2026-11-29", "2026-11-23"], // Sunday ends it
    ["2026-12-01", "2026-11-30"],
    ["2027-01-01", "2026-12-28"], // across a year
    ["2024-03-03", "2024-02-26"], // across a leap day
  ])("the week of %s starts on %s", (day, monday) => {
    expect(mondayOf(day)).toBe(monday);
  });

  it.each([
    ["justified", false],
    ["unnecessary", true],
    ["should_dispatch", true],
  ] as const)("a %s verdict says something went wrong: %s", (verdict, wrong) => {
    expect(saysWrong(verdict)).toBe(wrong);
  });

  it("lists every week of the window, empty ones at zero, and puts each count in its cell of person × rules", () => {
    const counts: VerdictCount[] = [
      { week: "2026-11-02", verdict: "unnecessary", flagged: true, n: 3 }, // both say wrong
      { week: "2026-11-02", verdict: "justified", flagged: false, n: 5 }, // neither
      { week: "2026-11-02", verdict: "justified", flagged: true, n: 1 }, // rules only
      { week: "2026-11-02", verdict: "should_dispatch", flagged: false, n: 1 }, // person only
      { week: "2026-11-16", verdict: "justified", flagged: false, n: 2 },
      { week: "2026-10-26", verdict: "justified", flagged: false, n: 9 }, // before the window: not counted
    ];
    const trends = reviewTrends({ tz: "UTC", from: "2026-11-04", to: "2026-11-17" }, counts);
    expect(trends.weeks.map((w) => w.week)).toEqual(["2026-11-02", "2026-11-09", "2026-11-16"]);
    expect(trends.weeks[0].table).toEqual({ bothWrong: 3, personOnly: 1, rulesOnly: 1, neither: 5 });
    expect(trends.weeks[0].withFindings).toBe(4);
    // 8 of 10 agree; Wilson 95% for 8/10 is 0.4902–0.9433 (textbook value).
    expect(trends.weeks[0].agreement.k).toBe(8);
    expect(trends.weeks[0].agreement.n).toBe(10);
    expect(trends.weeks[0].agreement.low).toBeCloseTo(0.4902, 4);
    expect(trends.weeks[0].agreement.high).toBeCloseTo(0.9433, 4);
    expect(trends.weeks[1].agreement).toEqual({ k: 0, n: 0, rate: null, low: null, high: null });
    expect(trends.total.verdicts).toEqual({ justified: 8, unnecessary: 3, should_dispatch: 1 });
    expect(trends.total.agreement).toMatchObject({ k: 10, n: 12 });
  });
});

describe("verdict chart", () => {
  it("draws a bar per week and says the window's verdicts and agreement in words", () => {
    const trends = reviewTrends({ tz: "UTC", from: "2026-11-02", to: "2026-11-15" }, [
      { week: "2026-11-02", verdict: "unnecessary", flagged: true, n: 3 },
      { week: "2026-11-09", verdict: "justified", flagged: true, n: 1 },
    ]);
    const chart = verdictChart(trends);
    expect(chart.bars).toEqual([
      { week: "2026-11-02", justified: 0, unnecessary: 3, should_dispatch: 0 },
      { week: "2026-11-09", justified: 1, unnecessary: 0, should_dispatch: 0 },
    ]);
    // 3 of 4 agree; Wilson 95% for 3/4 is 30.1%–95.4%.
    expect(chart.summary).toBe(
      "4 verdicts from 2026-11-02 to 2026-11-15: 1 justified, 3 unnecessary, 0 should have been dispatched. " +
        "People and the rules agreed on 3 of 4 (75%, 95% interval 30%–95%).",
    );
    expect(verdictChart(reviewTrends({ tz: "UTC", from: "2026-11-02", to: "2026-11-03" }, [])).summary).toBe(
      "No verdicts were given from 2026-11-02 to 2026-11-03.",
    );
  });
});
