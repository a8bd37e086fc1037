import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { TurnWindow } from "@/lib/run-view/turn-window";
import { dragAcross, givePlotWidth } from "@/components/testing/plot-pointer";
import { TurnBrush } from "./turn-brush";

const EXTENT = [0, 100] as const;

function renderBrush(domain: TurnWindow | null, extra: { fetching?: boolean; downsampled?: boolean } = {}) {
  const onWindow = vi.fn();
  render(
    <TurnBrush
      extent={EXTENT}
      domain={domain ?? { from: EXTENT[0], to: EXTENT[1] }}
      zoomed={domain !== null}
      overview={[
        { turn: 0, value: 100, stage: 0 },
        { turn: 100, value: 9000, stage: 3 },
      ]}
      overviewLabel="bytes of the final request"
      fetching={extra.fetching ?? false}
      downsampled={extra.downsampled ?? false}
      maxPoints={1000}
      onWindow={onWindow}
    />,
  );
  const track = screen.getByRole("slider");
  // A 1,000 px brush over turns 0–100: turn t is 10 t px into the plot.
  const x = givePlotWidth(track, 1000);
  const drag = (a: number, b: number) => dragAcross(track, x(a / 100), x(b / 100));
  return { onWindow, track, drag };
}

describe("the run page's turn brush", () => {
  it("over the whole run: says so, and has nothing to pan or zoom out of", () => {
    renderBrush(null);
    expect(screen.getByTestId("turn-window")).toHaveTextContent("whole run: turns 0–100 · every turn drawn");
    for (const name of ["Earlier turns", "Later turns", "Zoom out", "Whole run"])
      expect(screen.getByRole("button", { name })).toBeDisabled();
    expect(screen.getByRole("slider")).toHaveAttribute("aria-valuetext", "turns 0–100");
    expect(screen.getByRole("slider")).toHaveAccessibleName(/backdrop: bytes of the final request/);
  });

  it("zoomed: says which turns it shows, whether the series are thinned and whether the window is loading", () => {
    renderBrush({ from: 40, to: 60 }, { fetching: true, downsampled: true });
    expect(screen.getByTestId("turn-window")).toHaveTextContent(
      "showing turns 40–60 of turns 0–100 · series thinned to ≤ 1,000 points (markers kept); zoom in for every turn · loading…",
    );
    expect(screen.getByRole("slider")).toHaveAttribute("aria-valuenow", "40");
  });

  it("the buttons and ← → on the brush pan by half a window, zoom out twice as wide, or go back to the whole run", async () => {
    const user = userEvent.setup();
    const { onWindow, track } = renderBrush({ from: 40, to: 60 });
    await user.click(screen.getByRole("button", { name: "Earlier turns" }));
    expect(onWindow).toHaveBeenLastCalledWith({ from: 30, to: 50 });
    await user.click(screen.getByRole("button", { name: "Later turns" }));
    expect(onWindow).toHaveBeenLastCalledWith({ from: 50, to: 70 });
    await user.click(screen.getByRole("button", { name: "Zoom out" }));
    expect(onWindow).toHaveBeenLastCalledWith({ from: 30, to: 70 });
    await user.click(screen.getByRole("button", { name: "Whole run" }));
    expect(onWindow).toHaveBeenLastCalledWith(null);
    track.focus();
    await user.keyboard("{ArrowRight}");
    expect(onWindow).toHaveBeenLastCalledWith({ from: 50, to: 70 });
    await user.keyboard("{ArrowLeft}");
    expect(onWindow).toHaveBeenLastCalledWith({ from: 30, to: 50 });
  });

  it("zooms by keyboard on the brush: + in around the centre, − out, 0 and Escape back to the whole run", async () => {
    const user = userEvent.setup();
    const { onWindow, track } = renderBrush({ from: 40, to: 60 });
    track.focus();
    await user.keyboard("+");
    expect(onWindow).toHaveBeenLastCalledWith({ from: 45, to: 55 });
    await user.keyboard("-");
    expect(onWindow).toHaveBeenLastCalledWith({ from: 30, to: 70 });
    await user.keyboard("0");
    expect(onWindow).toHaveBeenLastCalledWith(null);
    onWindow.mockClear();
    await user.keyboard("{Escape}");
    expect(onWindow).toHaveBeenLastCalledWith(null);
    await user.keyboard("x");
    expect(onWindow).toHaveBeenCalledTimes(1);
  });

  it("zooms in from the whole run with + or the Zoom in button", async () => {
    const user = userEvent.setup();
    const { onWindow, track } = renderBrush(null);
    track.focus();
    await user.keyboard("+");
    expect(onWindow).toHaveBeenLastCalledWith({ from: 25, to: 75 });
    await user.keyboard("{ArrowRight}"); // nothing to pan over the whole run
    expect(onWindow).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole("button", { name: "Zoom in" }));
    expect(onWindow).toHaveBeenLastCalledWith({ from: 25, to: 75 });
  });

  it("a drag across the brush chooses the turns under it, at least 4 turns wide", () => {
    const { onWindow, drag } = renderBrush(null);
    drag(20, 35);
    expect(onWindow).toHaveBeenLastCalledWith({ from: 20, to: 35 });
    drag(72, 70);
    expect(onWindow).toHaveBeenLastCalledWith({ from: 69, to: 73 });
    // Across the whole run is no zoom at all.
    drag(0, 100);
    expect(onWindow).toHaveBeenLastCalledWith(null);
  });

  it("a click recentres a zoomed window on the turn clicked", () => {
    const zoomed = renderBrush({ from: 40, to: 60 });
    zoomed.drag(80, 80);
    expect(zoomed.onWindow).toHaveBeenCalledWith({ from: 70, to: 90 });
  });

  it("over the whole run a click is not a zoom", () => {
    const { onWindow, drag } = renderBrush(null);
    drag(80, 80);
    expect(onWindow).not.toHaveBeenCalled();
  });
});
