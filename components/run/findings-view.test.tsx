import { fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { TEvent, TRunTimeline } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { json } from "@/lib/core/spec/builders";
import { buildTimeline } from "@/lib/derived/timeline/build-timeline";
import { driftEvents, roomyEvents } from "@/components/testing/fixtures";
import { FindingsView } from "./findings-view";

const timelineOf = (events: readonly TEvent[]) => json(buildTimeline(rebuild([...events]), events));

function renderFindings(timeline: TRunTimeline, selectedTurn: number | null = null) {
  const onSelectTurn = vi.fn();
  render(
    <FindingsView
      timeline={timeline}
      hrefForTurn={(turn) => `/runs/drift?turn=${turn}`}
      onSelectTurn={onSelectTurn}
      selectedTurn={selectedTurn}
    />,
  );
  return onSelectTurn;
}

const group = (code: string) => within(document.querySelector<HTMLElement>(`[data-code="${code}"]`)!);
const turnLinks = (code: string) => within(screen.getByLabelText(`Turns with ${code}`)).queryAllByRole("link");

describe("run page: findings by code", () => {
  it("groups the run's findings by code, most serious first, each with its rule and the turns that hold one", () => {
    renderFindings(timelineOf(driftEvents), 10);
    expect(screen.getByRole("heading", { name: /^Findings / })).toHaveAccessibleName("Findings (6)");
    expect([...document.querySelectorAll("[data-code]")].map((li) => li.getAttribute("data-code"))).toEqual([
      "MISSING_REMINDER",
      "STAGE_MISMATCH",
      "INCOMPLETE_TURN",
    ]);
    expect(group("MISSING_REMINDER").getByText(/^×\d+$/)).toHaveTextContent("×4");
    group("INCOMPLETE_TURN").getByText(/is skipped \(R14\)/);
    expect(turnLinks("MISSING_REMINDER").map((a) => [a.textContent, a.getAttribute("href"), a.getAttribute("aria-current")])).toEqual([
      ["10", "/runs/drift?turn=10", "true"],
      ["11", "/runs/drift?turn=11", null],
    ]);
    screen.getByRole("link", { name: "Incomplete turn at turn 12" });
  });

  it("a turn link selects the turn in place; with a modifier key it is left to the browser (a new tab)", async () => {
    const user = userEvent.setup();
    const onSelectTurn = renderFindings(timelineOf(driftEvents));
    await user.click(screen.getByRole("link", { name: "Stage mismatch at turn 10" }));
    expect(onSelectTurn).toHaveBeenCalledWith(10);
    const followed = fireEvent.click(screen.getByRole("link", { name: "Incomplete turn at turn 12" }), { ctrlKey: true });
    expect(followed).toBe(true);
    expect(onSelectTurn).toHaveBeenCalledTimes(1);
  });

  it("shows the first 24 turns of a code, and the rest on demand", async () => {
    const user = userEvent.setup();
    const timeline = timelineOf(driftEvents);
    const many = Array.from({ length: 30 }, (_, turn) => ({ turn, code: "FREE_REQUEST" as const, count: 1 }));
    renderFindings({ ...timeline, findings: many, runFindings: [] });
    expect(turnLinks("FREE_REQUEST")).toHaveLength(24);
    await user.click(screen.getByRole("button", { name: "+6 more" }));
    expect(turnLinks("FREE_REQUEST")).toHaveLength(30);
    await user.click(screen.getByRole("button", { name: "fewer" }));
    expect(turnLinks("FREE_REQUEST")).toHaveLength(24);
  });

  it("a run-level finding is marked as the whole run's", () => {
    const timeline = timelineOf(driftEvents);
    renderFindings({ ...timeline, findings: [], runFindings: [{ code: "DISPATCH_WITHOUT_ADMISSION", count: 2 }] });
    expect(screen.getByRole("heading", { name: /^Findings / })).toHaveAccessibleName("Findings (2)");
    group("DISPATCH_WITHOUT_ADMISSION").getByText("whole run");
    expect(turnLinks("DISPATCH_WITHOUT_ADMISSION")).toEqual([]);
  });

  it("a run without findings says the rebuild agrees with what the agent recorded", () => {
    renderFindings({ ...timelineOf(roomyEvents), findings: [], runFindings: [] });
    expect(screen.getByRole("heading", { name: /^Findings / })).toHaveAccessibleName("Findings (0)");
    screen.getByText("the rebuild agrees with what the agent recorded");
    expect(screen.queryByRole("list")).not.toBeInTheDocument();
  });
});
