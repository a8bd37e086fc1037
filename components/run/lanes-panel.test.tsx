import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ZEvent, type TEvent } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { json, run } from "@/lib/core/spec/builders";
import { buildTimeline } from "@/lib/derived/timeline/build-timeline";
import { generateEtfRun } from "@/lib/demo/etf-run";
import type { TurnWindow } from "@/lib/run-view/turn-window";
import { reviewerEvents } from "@/components/testing/fixtures";
import { LanesPanel } from "./lanes-panel";

const timelineOf = (events: TEvent[]) => json(buildTimeline(rebuild(events), events));

function renderLanes(events: TEvent[], domain: TurnWindow, selectedTurn: number | null = null) {
  const onSelectTurn = vi.fn();
  render(<LanesPanel timeline={timelineOf(events)} axis={{ domain, ticks: [], selectedTurn, onSelectTurn, onZoom: () => {} }} />);
  return onSelectTurn;
}

const heading = (name: RegExp) => screen.getByRole("heading", { name });
/** A lane's marks' sentences, drawn order (a lane with none is a group, not a slider). */
const laneOf = (lane: RegExp) => screen.queryByRole("slider", { name: lane }) ?? screen.getByRole("group", { name: lane });
const marks = (lane: RegExp) => Array.from(laneOf(lane).querySelectorAll("[data-mark]")).map((m) => m.getAttribute("title"));

describe("run page lanes (R12): review suggestion, Reviewer, notifications, findings", () => {
  it("sums up the rules' Reviewer candidates and what the runtime recorded, chain by chain", () => {
    renderLanes(reviewerEvents, { from: 9, to: 20 });
    expect(heading(/^Review suggestion/)).toHaveTextContent("checkpoints every 10 turns");
    expect(heading(/^Reviewer/)).toHaveTextContent(
      "rules: 2 candidates, 1 denied · recorded: 3 chains, 2 dispatches (1 running), 1 cancelled",
    );
    expect(marks(/^rules:/)).toEqual([
      "turn 10 · rules: Reviewer candidate, checkpoint 1 · admission granted",
      "turn 20 · rules: Reviewer candidate, checkpoint 2 · admission denied: insufficient budget",
    ]);
    expect(marks(/^recorded:/)).toEqual(
      expect.arrayContaining([
        "turns 10–12 · dispatch d1 of candidate c1 completed",
        "turn 20 onwards · dispatch d3 of candidate c3 still running",
        "turn 11 · candidate c2 cancelled: reminder dropped",
        "turn 20 · recorded admission for candidate c3: denied: insufficient budget",
      ]),
    );
    expect(marks(/^review reminders/)).toEqual([
      "turn 11 · review reminder, stage 1 · delivered (20 B)",
      "turn 20 · review reminder, stage 2 · delivered (20 B)",
      "turn 10 · review reminder, stage 1 · dropped: needs 20 B, 19 B free",
    ]);
    expect(marks(/^findings:/)).toEqual([
      "turn 11 · findings: Missing reminder ×2, Admission against the rule, Candidate cancelled by a drop",
      "turn 20 · findings: Missing reminder ×2, Dispatch without admission",
    ]);
    expect(heading(/^Findings/)).toHaveTextContent("2 turns in view");
  });

  it("shows only what falls inside the window", () => {
    renderLanes(reviewerEvents, { from: 0, to: 10 });
    expect(marks(/^rules:/)).toEqual(["turn 10 · rules: Reviewer candidate, checkpoint 1 · admission granted"]);
    expect(marks(/^findings:/)).toEqual([]);
    expect(heading(/^Findings/)).toHaveTextContent("0 turns in view");
  });

  it("every mark selects its turn", async () => {
    const user = userEvent.setup();
    const onSelectTurn = renderLanes(reviewerEvents, { from: 9, to: 20 });
    await user.click(screen.getByTitle("turns 10–12 · dispatch d1 of candidate c1 completed"));
    expect(onSelectTurn).toHaveBeenLastCalledWith(10);
    await user.click(screen.getByTitle(/^turn 20 · findings:/));
    expect(onSelectTurn).toHaveBeenLastCalledWith(20);
    await user.click(screen.getByTitle("turn 11 · review reminder, stage 1 · delivered (20 B)"));
    expect(onSelectTurn).toHaveBeenLastCalledWith(11);
    // By keyboard: each lane is one slider; Enter opens the mark it is on.
    const rules = screen.getByRole("slider", { name: /^rules:/ });
    rules.focus();
    await user.keyboard("{End}{Enter}");
    expect(onSelectTurn).toHaveBeenLastCalledWith(20);
    expect(rules).toHaveAttribute("aria-valuetext", expect.stringMatching(/^turn 20 · rules: Reviewer candidate/));
  });

  it("without review and reviewer sections, notifications still have their own lane", async () => {
    const user = userEvent.setup();
    const events = run({ runId: "plain", policy: { requests: { limit: 40, stages: [0.5] } } })
      .turn(0, (t) => t.requests(5).final(100).ok([]).notified("slack", "Started the comparison"))
      .turn(1, (t) => t.requests(6).final(100).ok([]).notified("email", "Fees table ready"))
      .events();
    const onSelectTurn = renderLanes(events, { from: 0, to: 1 });
    expect(heading(/^Review suggestion/)).toHaveTextContent("no review section");
    expect(heading(/^Reviewer/)).toHaveTextContent("no reviewer section · recorded: 0 chains");
    expect(heading(/^User notifications/)).toHaveTextContent("2 in view");
    const notified = marks(/^notified:/);
    expect(notified).toHaveLength(2);
    expect(notified[1]).toMatch(/^turn 1 · .*email.*Fees table ready/);
    await user.click(screen.getAllByTitle(/^turn 1 · /)[0]);
    expect(onSelectTurn).toHaveBeenCalledWith(1);
  });

  it("says when lanes are folded, and a folded mark counts what it stands for and selects its first turn", async () => {
    const events = generateEtfRun({ turns: 600, seed: 5, anomalies: true }).events.map((e) => ZEvent.parse(e));
    const timeline = json(buildTimeline(rebuild(events), events, { maxPoints: 20 }));
    expect(timeline.lanesFolded).toBe(true);
    const onSelectTurn = vi.fn();
    render(
      <LanesPanel
        timeline={timeline}
        axis={{ domain: { from: 0, to: 600 }, ticks: [], selectedTurn: null, onSelectTurn, onZoom: () => {} }}
      />,
    );
    expect(screen.getByTestId("lanes-folded")).toHaveTextContent("Zoom in to see each");
    const notified = marks(/^notified:/);
    expect(notified.length).toBeGreaterThan(0);
    expect(notified.length).toBeLessThanOrEqual(10);
    expect(notified[0]).toMatch(/^turns? [\d,–]+ · \d+ user notifications via .+ · zoom in for each$/);
    const total = timeline.notifications.reduce((n, item) => n + (item.count ?? 1), 0);
    expect(total).toBe(events.filter((e) => e.type === "user.notified").length);
    expect(heading(/^User notifications/)).toHaveTextContent(`${total} in view`);
    const recorded = Array.from(laneOf(/^recorded:/).querySelectorAll<HTMLElement>("[data-mark]")).sort(
      (a, b) => Number(a.dataset.turn) - Number(b.dataset.turn),
    );
    await userEvent.click(recorded[0]);
    expect(onSelectTurn).toHaveBeenCalledWith(timeline.reviewer.chainBuckets![0].turn);
  });

  it("counts a dense lane per span of turns at run scale, each bar zooming to its turns, and shows the items once zoomed in", async () => {
    const builder = run({ runId: "chatty", policy: {} as never });
    for (let turn = 0; turn < 300; turn++)
      builder.turn(turn, (t) =>
        t
          .requests(turn + 1)
          .final(100)
          .ok([])
          .notified("slack", `note ${turn}`),
      );
    const events = builder.events();
    const timeline = timelineOf(events);
    const onZoom = vi.fn();
    const { unmount } = render(
      <LanesPanel
        timeline={timeline}
        axis={{ domain: { from: 0, to: 299 }, ticks: [], selectedTurn: null, onSelectTurn: vi.fn(), onZoom }}
      />,
    );
    screen.getByTestId("lanes-dense");
    const bars = Array.from(laneOf(/^notified:/).querySelectorAll<HTMLElement>("[data-mark]"));
    expect(bars.length).toBeLessThanOrEqual(60);
    const counted = bars.map((b) => Number(/· (\d+) user notifications ·/.exec(b.getAttribute("title") ?? "")?.[1]));
    expect(counted.reduce((a, b) => a + b, 0)).toBe(300);
    await userEvent.click(bars[0]);
    expect(onZoom).toHaveBeenCalledWith(0, 4);
    unmount();

    render(
      <LanesPanel
        timeline={timeline}
        axis={{ domain: { from: 0, to: 40 }, ticks: [], selectedTurn: null, onSelectTurn: vi.fn(), onZoom }}
      />,
    );
    expect(screen.queryByTestId("lanes-dense")).toBeNull();
    expect(marks(/^notified:/)).toHaveLength(41);
  });
});
