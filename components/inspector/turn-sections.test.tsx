import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { rem, run, TIME } from "@/lib/core/spec/builders";
import { reviewerEvents, TEACH_COPY, teachPolicy, turnDetail } from "@/components/testing/fixtures";
import { defaultCopyTable, fillTemplate, reminderCostOf } from "@/lib/testing/contract-text";
import { TurnBody } from "./turn-body";

/**
 * Turn 5 of a run near its limits: requests into the reserve, block b1 out of edits, a compaction
 * rolled back, a failed submission then a free retry, a notification, model actions, and a
 * Reviewer candidate the agent's runtime denied.
 */
const busy = run({ runId: "busy", policy: { ...teachPolicy, time: TIME }, copy: TEACH_COPY })
  .turn(4, (t) => t.requests(30).time(1_200_000).final(6000).ok([]))
  .turn(5, (t) =>
    t
      .requests(38)
      .time(1_500_000)
      .block("b1", 4)
      .block("b2", 1)
      .compaction(12_000, 9_500, "rolled_back")
      .final(9_800)
      .submitted("failed", [], { purpose: "turn" })
      .submitted("ok", [rem("requests", 3)], { purpose: "retry", countsAgainstBudget: false })
      .notified("slack", "Budget nearly spent")
      .action("edit_block", "b1")
      .action("finalize")
      .candidate("c1", 1)
      .admission("c1", false, ["insufficient_budget"]),
  )
  .events();

/** Turn 2 of a run without a time meter: the request is final but not submitted yet, and was compacted. */
const pending = run({ runId: "pending", policy: teachPolicy, copy: TEACH_COPY })
  .turn(2, (t) =>
    t
      .requests(20)
      .compaction(9_000, 7_500, "adopted")
      .final(7_500)
      .notified("email", `Long note: ${"x".repeat(200)}`),
  )
  .events();

const section = (name: string) => within(screen.getByRole("region", { name }));
const sectionElement = (name: string) => screen.getByRole("region", { name });
const lines = (list: HTMLElement) =>
  within(list)
    .getAllByRole("listitem")
    .map((li) => li.textContent?.replace(/\s+/g, " ").trim());

describe("turn inspector sections: a turn near its limits", () => {
  it("meters: each in its own unit with its ratio and stage; an exhausted block is flagged for that block only", () => {
    render(<TurnBody detail={turnDetail(busy, 5)} />);
    expect(lines(section("Meters").getByRole("list"))).toEqual([
      "requests count38 of 36 requests usable · +4 reserved105%stage 3",
      "time min25 of 30 min83%stage 2",
      "context bytes9,800 B of 10,000 B · final request98%stage 3",
      "edits b1 count4 of 4 editsexhausted · this block only100%stage 2",
      "edits b2 count1 of 4 edits25%stage 0",
    ]);
  });

  it("candidates: each reminder's text, cost and status in R4 order, and a link to try other wording on this turn", () => {
    render(<TurnBody detail={turnDetail(busy, 5)} />);
    const candidates = section("Candidates");
    // The run's copy names no time key, so the time notice is contract §5's default template (25 of 30 minutes used).
    const text = fillTemplate(defaultCopyTable().time!["*"], { elapsedMin: 25, limitMin: 30, percent: 83, remainingMin: 5 });
    expect(lines(candidates.getByRole("list"))[1]).toBe(`timestage 2 · notice${reminderCostOf(text)} B●delivered${text}`);
    expect(candidates.getByRole("link", { name: "Try other wording on this turn →" })).toHaveAttribute("href", "/copy?run=busy&turn=5");
  });

  it("submission: the last request.submitted decides, earlier ones are listed with purpose and budget flag", () => {
    render(<TurnBody detail={turnDetail(busy, 5)} />);
    const submission = section("Submission");
    submission.getByText("2 request.submitted · the last one counts");
    expect(submission.getByText(/^Outcome/)).toHaveTextContent("Outcome ok · 4 included reminders: ●delivered");
    expect(lines(submission.getByRole("list"))).toEqual([
      "#1failedpurpose turn10:00:12.000 · counts against the budget · list: [] (nothing)",
      "#2okpurpose retrythe turn's submission10:00:13.000 · free: not counted against the budget · list: 1 reminder",
    ]);
  });

  it("submission: a turn whose rebuild included no reminder says so instead of showing a delivery status", () => {
    const quiet = run({ runId: "quiet", policy: teachPolicy, copy: TEACH_COPY })
      .turn(0, (t) => t.requests(1).final(100).ok([]))
      .events();
    render(<TurnBody detail={turnDetail(quiet, 0)} />);
    const outcome = section("Submission").getByText(/^Outcome/);
    expect(outcome).toHaveTextContent("Outcome ok · no reminders were included");
    expect(outcome).not.toHaveTextContent("delivered");
  });

  it("final request and compaction: a rolled-back candidate never sets the stage (R9)", () => {
    render(<TurnBody detail={turnDetail(busy, 5)} />);
    const context = section("Final request and compaction");
    expect(context.getByText(/^Stage and fitting used the final request/)).toHaveTextContent(
      "Stage and fitting used the final request: 9,800 B required.",
    );
    expect(lines(context.getByRole("list", { name: "Compaction sizes" }))).toEqual([
      "original12,000 B120%",
      "candidate · rolled back9,500 B95%",
      "final (used)9,800 B98%",
    ]);
    expect(context.getByText(/was rolled back/)).toHaveTextContent(
      "The candidate (9,500 B) was rolled back, so it was not used: stage and fitting use the final request's size (9,800 B, from request.final), never the candidate's.",
    );
  });

  it("lanes: the recorded Reviewer events beside the rebuild's, notifications and model actions each in their own lane (R12)", () => {
    render(<TurnBody detail={turnDetail(busy, 5)} />);
    const reviewer = section("Reviewer");
    reviewer.getByText("Rebuild: no Reviewer candidate this turn.");
    expect(lines(reviewer.getByRole("list"))).toEqual([
      "◇candidate c1 · checkpoint 1",
      "✗admission denied for c1 — too few requests left (usable − used < minRequestsLeft)",
    ]);
    expect(lines(section("User notifications").getByRole("list"))).toEqual(["✉slack Budget nearly spent"]);
    expect(lines(section("Model actions").getByRole("list"))).toEqual(["›edit block b1", "›finalize"]);
  });

  it("all events of the turn are listed folded, in run order, each with its time, type and body", () => {
    render(<TurnBody detail={turnDetail(busy, 5)} />);
    const events = screen.getByText("All events of the turn").closest("details")!;
    expect(events.open).toBe(false);
    expect(events.querySelector("summary")).toHaveTextContent("All events of the turn (13, run order)");
    expect(lines(within(events).getByRole("list"))[0]).toBe('10:00:06.000meter.requests{"used":38}');
  });
});

describe("turn inspector sections: other turns", () => {
  it("a turn not submitted yet: reminders pending, an adopted compaction, absent meters, a long event body shortened", () => {
    render(<TurnBody detail={turnDetail(pending, 2)} />);
    expect(sectionElement("Submission")).toHaveTextContent("No submission yet.");
    expect(section("Candidates").getAllByText("pending").length).toBeGreaterThan(0);
    expect(section("Meters").getByText("time").closest("li")).toHaveTextContent("no reading, or off in the policy");
    expect(section("Meters").getByText("edits").closest("li")).toHaveTextContent("no reading, or off in the policy");
    expect(section("Final request and compaction").getByText(/adopted:/)).toHaveTextContent(
      "The candidate was adopted: the request that was sent measures 7,500 B.",
    );
    section("Model actions").getByText("None.");
    const body = screen.getByText("user.notified").nextElementSibling!;
    expect(body.textContent).toHaveLength(138);
    expect(body.textContent).toMatch(/^\{"channel":"email","message":"Long note: x+…$/);
  });

  it("what filled the request (contract §11): each part and the unattributed rest with its share, the reminders fitted after, the provider's tokens apart", () => {
    const parts = run({ runId: "parts", policy: teachPolicy, copy: TEACH_COPY })
      .turn(3, (t) =>
        t
          .requests(30)
          .finalWith({
            requiredBytes: 8_000,
            providerTokens: 2_100,
            providerCachedTokens: 1_500,
            contextParts: { system: 2_000, history: 5_000, reminders: 200 },
          })
          .ok(),
      )
      .events();
    render(<TurnBody detail={turnDetail(parts, 3)} />);
    const context = section("Final request and compaction");
    // Shares of the 8,000 B request, by hand: 2,000 → 25%, 5,000 → 62.5%, 200 → 2.5%, the 800 B rest → 10%.
    expect(lines(context.getByRole("list", { name: "The final request by part" }))).toEqual([
      "system2,000 B25%",
      "history5,000 B62.5%",
      "earlier reminders200 B2.5%",
      "unattributed800 B10%",
    ]);
    expect(context.getByText(/^Provider:/)).toHaveTextContent(
      "Provider: 2,100 tokens, 1,500 tokens of them cached (tokens, as reported; never converted to bytes, not used by the rules).",
    );
  });

  it("a turn whose agent sent no parts says so, and shows no breakdown", () => {
    render(<TurnBody detail={turnDetail(pending, 2)} />);
    const context = section("Final request and compaction");
    expect(context.queryByRole("list", { name: "The final request by part" })).toBeNull();
    context.getByText(/did not report what filled this request/);
  });

  it("a Reviewer candidate the rules admitted, dispatched by the runtime", () => {
    render(<TurnBody detail={turnDetail(reviewerEvents, 10)} />);
    const reviewer = section("Reviewer");
    expect(reviewer.getByText(/^Rebuild: candidate at/).closest("div")?.parentElement).toHaveTextContent(
      "Rebuild: candidate at checkpoint 1 · admission granted",
    );
    expect(lines(reviewer.getByRole("list"))).toEqual([
      "◇candidate c1 · checkpoint 1",
      "✓admission granted for c1",
      "▶dispatched d1 for c1",
    ]);
    section("User notifications").getByText("None.");
  });

  it("events the contract cannot read are counted, not shown", () => {
    const detail = turnDetail(busy, 4);
    render(<TurnBody detail={{ ...detail, events: [...detail.events, { id: "junk", type: "meter.pressure", turn: 4 }] }} />);
    screen.getByText("1 event(s) could not be read.");
    expect(screen.getByText("All events of the turn").closest("summary")).toHaveTextContent("(4, run order)");
  });
});
