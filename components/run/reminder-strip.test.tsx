import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { rebuild } from "@/lib/core";
import { json, run } from "@/lib/core/spec/builders";
import { buildTimeline } from "@/lib/derived/timeline/build-timeline";
import type { TurnWindow } from "@/lib/run-view/turn-window";
import { TEACH_COPY, teachPolicy } from "@/components/testing/fixtures";
import { ReminderStrip } from "./reminder-strip";

// The context notice (stage 3, 21 B) does not fit on turns 0–2 (10 B free) and is dropped each
// turn; the request shrinks, and on turn 6 the stage 2 notice is delivered.
const builder = run({ runId: "tight", policy: teachPolicy, copy: TEACH_COPY });
for (const [turn, bytes] of [
  [0, 9_990],
  [1, 9_990],
  [2, 9_990],
  [3, 5_000],
  [6, 8_600],
]) {
  builder.turn(turn, (t) =>
    t
      .requests(10 + turn)
      .final(bytes)
      .ok([]),
  );
}
const events = builder.events();
const context = json(buildTimeline(rebuild(events), events)).reminders.context;

function renderStrip(domain: TurnWindow) {
  const onSelectTurn = vi.fn();
  render(<ReminderStrip label="context" items={context} stageRows={3} domain={domain} selectedTurn={2} onSelectTurn={onSelectTurn} />);
  return onSelectTurn;
}

const strip = () => screen.getByRole("slider", { name: "context reminders, by stage and status" });
const marks = () => Array.from(strip().querySelectorAll("[data-mark]")).map((m) => m.getAttribute("title"));

describe("a meter's reminder strip", () => {
  it("one mark per reminder, a reminder repeated over consecutive turns as one bar, each saying turn, stage and status", () => {
    renderStrip({ from: 0, to: 6 });
    expect(marks().sort()).toEqual([
      "turn 6 · context reminder, stage 2 · delivered (21 B)",
      "turns 0–2 · context reminder, stage 3 · dropped: needs 21 B, 10 B free",
    ]);
  });

  it("a mark selects its (first) turn", async () => {
    const user = userEvent.setup();
    const onSelectTurn = renderStrip({ from: 0, to: 6 });
    await user.click(screen.getByTitle(/^turns 0–2/));
    expect(onSelectTurn).toHaveBeenCalledWith(0);
    await user.click(screen.getByTitle(/^turn 6/));
    expect(onSelectTurn).toHaveBeenLastCalledWith(6);
  });

  it("a zoomed window leaves out the reminders outside it", () => {
    renderStrip({ from: 4, to: 6 });
    expect(marks()).toEqual(["turn 6 · context reminder, stage 2 · delivered (21 B)"]);
  });

  it("is one control: Tab reaches it once; arrows, Home and End move between marks in turn order, saying each; Enter selects", async () => {
    const user = userEvent.setup();
    const onSelectTurn = vi.fn();
    render(
      <>
        <button type="button">before</button>
        <ReminderStrip
          label="context"
          items={context}
          stageRows={3}
          domain={{ from: 0, to: 6 }}
          selectedTurn={3}
          onSelectTurn={onSelectTurn}
        />
        <button type="button">after</button>
      </>,
    );
    expect(strip().querySelectorAll("button, [tabindex]")).toHaveLength(0);
    await user.click(screen.getByRole("button", { name: "before" }));
    await user.tab();
    expect(document.activeElement).toBe(strip());
    // Selected turn 3: the first mark at or after it is turn 6's.
    expect(strip()).toHaveAttribute("aria-valuetext", expect.stringMatching(/^turn 6 · .* \(2 of 2; Enter to open\)$/));
    await user.keyboard("{ArrowLeft}");
    expect(strip()).toHaveAttribute("aria-valuetext", expect.stringMatching(/^turns 0–2 · /));
    expect(strip().querySelector('[data-active="true"]')).toHaveAttribute("title", expect.stringMatching(/^turns 0–2 /));
    await user.keyboard("{ArrowLeft}"); // stays on the first
    expect(strip()).toHaveAttribute("aria-valuenow", "1");
    await user.keyboard("{End}");
    expect(strip()).toHaveAttribute("aria-valuenow", "2");
    await user.keyboard("{Home}{Enter}");
    expect(onSelectTurn).toHaveBeenLastCalledWith(0);
    await user.keyboard("{End} ");
    expect(onSelectTurn).toHaveBeenLastCalledWith(6);
    // One Tab leaves the strip.
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "after" }));
  });
});
