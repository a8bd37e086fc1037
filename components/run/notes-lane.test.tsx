import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeApi, renderWithClient } from "@/components/testing/api";
import { NotesLane } from "./notes-lane";

afterEach(() => vi.unstubAllGlobals());

describe("NotesLane", () => {
  it("marks each commented turn in the window, and a click selects it", async () => {
    fakeApi({
      "GET /api/v1/runs/r1/comments/turns": () => ({
        turns: [
          { turn: 3, count: 2 },
          { turn: 40, count: 1 },
          { turn: 90, count: 1 },
        ],
        truncated: false,
      }),
    });
    const onSelectTurn = vi.fn();
    renderWithClient(<NotesLane runId="r1" axis={{ domain: { from: 0, to: 50 }, selectedTurn: 40, onSelectTurn }} />);
    const mark = await screen.findByTitle("2 comments on turn 3");
    expect(mark.style.left).toBe("6%");
    expect(screen.getByTitle("1 comment on turn 40")).toHaveAttribute("data-selected", "true");
    // Turn 90 is outside the zoomed window.
    expect(screen.queryByTitle(/turn 90/)).toBeNull();
    // One slider for the lane, on the selected turn's mark.
    expect(screen.getByRole("slider", { name: "Notes: turns with comments" })).toHaveAttribute(
      "aria-valuetext",
      "1 comment on turn 40 (2 of 2; Enter to open)",
    );
    expect(screen.getByRole("region", { name: /^Notes lane/ })).toHaveAccessibleName("Notes lane: 3 turns have comments");
    await userEvent.setup().click(mark);
    expect(onSelectTurn).toHaveBeenCalledWith(3);
  });

  it("says when no turn has comments", async () => {
    fakeApi({ "GET /api/v1/runs/r1/comments/turns": () => ({ turns: [], truncated: false }) });
    renderWithClient(<NotesLane runId="r1" axis={{ domain: { from: 0, to: 50 }, selectedTurn: null, onSelectTurn: () => {} }} />);
    await screen.findByText("no turn has comments yet");
  });
});
