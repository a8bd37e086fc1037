import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { TEvent } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { json, run } from "@/lib/core/spec/builders";
import { buildTimeline } from "@/lib/derived/timeline/build-timeline";
import { dragAcross, givePlotWidth } from "@/components/testing/plot-pointer";
import { TEACH_COPY, teachingEvents, teachPolicy } from "@/components/testing/fixtures";
import { projectionCheck } from "@/lib/derived/projection/projection-check";
import { ZPolicy } from "@/lib/contracts";
import { MeterPanels } from "./meter-panels";

// recharts draws nothing without layout (happy-dom has none): these tests cover what the panels
// say around the charts, the strips under them, and the pointer handling of the plot area; the
// drawing itself is left to the e2e suite.

function renderPanels(events: readonly TEvent[], domain = { from: 9, to: 11 }) {
  const axis = { domain, ticks: [9, 10, 11], selectedTurn: null, onSelectTurn: vi.fn(), onZoom: vi.fn() };
  render(<MeterPanels timeline={json(buildTimeline(rebuild([...events]), events))} axis={axis} />);
  return axis;
}

const panel = (title: RegExp) => within(screen.getByRole("heading", { name: title }).closest("section")!);
const panelElement = (title: RegExp) => screen.getByRole("heading", { name: title }).closest("section")!;

describe("run page meter panels", () => {
  it("one panel per meter in its own unit, with its limits; a meter the policy lacks says it is off", () => {
    renderPanels(teachingEvents);
    expect(panelElement(/^Requests/)).toHaveTextContent("36 requests usable + 4 requests reserved = 40 requests");
    panel(/^Requests/).getByRole("img", { name: "Requests used per turn (count), last 29 requests" });
    expect(panelElement(/^Time/)).toHaveTextContent("The run's policy has no time section: this meter is off.");
    expect(panelElement(/^Context/)).toHaveTextContent("capacity 10,000 B · 0 compactions");
    expect(panelElement(/^Edit quota/)).toHaveTextContent("4 edits per block unless a block reports its own limit");
    panel(/^Edit quota/).getByTitle("block b1: limit 4 edits");
  });

  it("each meter's reminders sit under its chart, each block's under its own", () => {
    renderPanels(teachingEvents);
    const titles = (name: RegExp) =>
      Array.from(
        panel(name)
          .getByRole("slider", { name: /reminders, by stage and status$/ })
          .querySelectorAll("[data-mark]"),
      ).map((m) => m.getAttribute("title"));
    expect(titles(/^Requests/)).toEqual(["turn 10 · requests reminder, stage 2 · delivered (19 B)"]);
    panel(/^Edit quota/).getByRole("slider", { name: "edits reminders, by stage and status" });
    expect(titles(/^Edit quota/)).toEqual(["turns 10–11 · edits reminder (b1), stage 1 · delivered on each rebuilt turn (17 B)"]);
    expect(titles(/^Context/)).toHaveLength(2);
  });

  it("each chart says what it shows in a sentence, and shows its points as a table in its own unit", async () => {
    renderPanels(teachingEvents);
    const requests = panel(/^Requests/).getByRole("figure");
    expect(requests).toHaveAccessibleDescription(/^requests used went from [\d,]+ requests? to [\d,]+ requests over turns 9–11/);
    await userEvent.click(within(requests).getByRole("button", { name: "View as table" }));
    const table = within(requests).getByRole("table");
    within(table).getByRole("columnheader", { name: "requests used (requests)" });
    expect(within(table).getAllByRole("row").length).toBeGreaterThan(1);
    expect(
      within(table)
        .getAllByRole("rowheader")
        .map((h) => h.textContent),
    ).toEqual(["9", "10", "11"]);
  });

  it("a run whose blocks were never edited says so", () => {
    const events = run({ runId: "no-edits", policy: teachPolicy, copy: TEACH_COPY })
      .turn(0, (t) => t.requests(1).final(100).ok([]))
      .events();
    renderPanels(events, { from: 0, to: 1 });
    expect(panelElement(/^Edit quota/)).toHaveTextContent("No block was edited in this window.");
  });

  it("a click on a chart selects the turn under the pointer; a drag zooms to the turns dragged over", () => {
    const axis = renderPanels(teachingEvents);
    const plot = screen.getByRole("img", { name: /^Requests used per turn/ });
    // A 200 px plot for turns 9–11: 100 px per turn.
    const x = givePlotWidth(plot, 200);
    const at = (turn: number) => x((turn - 9) / 2);
    dragAcross(plot, at(10), at(10));
    expect(axis.onSelectTurn).toHaveBeenCalledWith(10);
    dragAcross(plot, at(9), at(11));
    expect(axis.onZoom).toHaveBeenCalledWith(9, 11);
    expect(axis.onSelectTurn).toHaveBeenCalledTimes(1);
  });

  it("a finished run says, under each meter, how far off its projection was at each stage it reached", () => {
    // 1 request a turn to turn 39, then 3: stage 1 (50 of 100) is reached at turn 43, 7 turns sooner than
    // the 1-a-turn pace seen at turn 13 projected (turn 50), outside that pace's (exact) interval.
    const policy = { requests: { limit: 100, deliveryReserve: 0, stages: [0.5] } };
    const builder = run({ runId: "sped-up", policy });
    for (let turn = 0; turn < 45; turn++)
      builder.turn(turn, (t) =>
        t
          .requests(turn <= 39 ? turn : 39 + 3 * (turn - 39))
          .final(10)
          .ok(),
      );
    const events = builder.events();
    const decisions = rebuild([...events]);
    const axis = { domain: { from: 0, to: 44 }, ticks: [0, 44], selectedTurn: null, onSelectTurn: vi.fn(), onZoom: vi.fn() };
    render(
      <MeterPanels
        timeline={json(buildTimeline(decisions, events))}
        axis={axis}
        projectionCheck={projectionCheck(decisions.turns, ZPolicy.parse(policy))}
      />,
    );
    const check = screen.getByTestId("projection-check-requests");
    expect(check).toHaveTextContent("made 30 turns before each stage: 0 of 1 reached inside its 95% interval.");
    expect(within(check).getByRole("listitem")).toHaveTextContent(
      "Stage 1 reached at turn 43, 7 turns sooner than projected at turn 13: turn 50, outside its interval.",
    );
    expect(screen.queryByTestId("projection-check-context")).toBeNull();
  });
});
