import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TRunSearch } from "@/lib/contracts";
import { fakeApi, renderWithClient } from "@/components/testing/api";
import { RunSearch } from "./run-search";

afterEach(() => vi.unstubAllGlobals());

const ANSWER: TRunSearch = {
  runId: "r1",
  q: "requests",
  kind: null,
  indexed: true,
  terms: [
    { kind: "text", term: "# requests left", turns: 3 },
    { kind: "finding", term: "FREE_REQUEST", turns: 1 },
  ],
  termsTruncated: false,
  total: 4,
  matches: [
    { turn: 5, terms: [0] },
    { turn: 40, terms: [0, 1] },
    { turn: 90, terms: [0] },
    { turn: 120, terms: [0] },
  ],
  truncated: false,
};

function setup(selectedTurn: number | null, answers: Record<string, () => unknown>) {
  const sent = fakeApi(answers);
  const onSelectTurn = vi.fn();
  const onGo = vi.fn();
  const view = renderWithClient(<RunSearch runId="r1" axis={{ domain: { from: 0, to: 100 }, selectedTurn, onSelectTurn }} onGo={onGo} />);
  return { sent, onSelectTurn, onGo, view, user: userEvent.setup() };
}

describe("RunSearch", () => {
  it("asks once typing pauses, says how many turns match, and marks those in the window; a click on a mark selects its turn", async () => {
    const { sent, onSelectTurn, user } = setup(null, { "GET /api/v1/runs/r1/search?q=requests": () => ANSWER });
    const box = screen.getByRole("searchbox", { name: "Search this run" });
    await user.type(box, "requests");
    await waitFor(() => expect(screen.getByTestId("run-search-status")).toHaveTextContent("4 turns match"));
    // One request, for the whole word: the letters typed before the pause asked nothing.
    expect(sent.map((r) => r.path)).toEqual(["/api/v1/runs/r1/search?q=requests"]);
    const lane = screen.getByRole("slider", { name: "Search matches" });
    // Turn 120 is outside the window (0–100).
    expect(lane.querySelectorAll("[data-mark]")).toHaveLength(3);
    const mark = screen.getByTitle("turn 40: reminder text “# requests left”, finding “FREE_REQUEST”");
    expect(mark.style.left).toBe("40%");
    await user.click(mark);
    expect(onSelectTurn).toHaveBeenCalledWith(40);
  });

  it("searches one kind when one is chosen", async () => {
    const { sent, user } = setup(null, {
      "GET /api/v1/runs/r1/search?kind=finding&q=free": () => ({ ...ANSWER, q: "free", kind: "finding", total: 0, matches: [], terms: [] }),
    });
    await user.selectOptions(screen.getByRole("combobox", { name: "Kind" }), "finding");
    await user.type(screen.getByRole("searchbox", { name: "Search this run" }), "free");
    await waitFor(() => expect(screen.getByTestId("run-search-status")).toHaveTextContent("No turn matches as finding."));
    expect(sent.map((r) => r.path)).toEqual(["/api/v1/runs/r1/search?kind=finding&q=free"]);
    expect(screen.queryByRole("slider", { name: "Search matches" })).toBeNull();
    expect(screen.getByRole("button", { name: /Next match/ })).toBeDisabled();
  });

  it("steps from the selected turn to the next and previous match, quick steps each from the last, and says when there is none", async () => {
    const { onGo, onSelectTurn, view, user } = setup(40, { "GET /api/v1/runs/r1/search?q=requests": () => ANSWER });
    await user.type(screen.getByRole("searchbox", { name: "Search this run" }), "requests");
    await screen.findByText("4 turns match");
    await user.click(screen.getByRole("button", { name: /Next match/ }));
    expect(onGo).toHaveBeenLastCalledWith(90);
    // The page follows: turn 90 is selected.
    view.rerender(<RunSearch runId="r1" axis={{ domain: { from: 0, to: 100 }, selectedTurn: 90, onSelectTurn }} onGo={onGo} />);
    await user.click(screen.getByRole("button", { name: /Previous match/ }));
    expect(onGo).toHaveBeenLastCalledWith(40);
    // Before the page follows, the next step goes on from 40.
    await user.click(screen.getByRole("button", { name: /Previous match/ }));
    expect(onGo).toHaveBeenLastCalledWith(5);
    expect(screen.getByTestId("run-search-status")).toHaveTextContent("4 turns match · turn 5: previous match.");
    await user.click(screen.getByRole("button", { name: /Previous match/ }));
    expect(onGo).toHaveBeenCalledTimes(3);
    expect(screen.getByTestId("run-search-status")).toHaveTextContent("No earlier match than turn 5.");
  });

  it("Enter searches at once, then goes to the next match; Shift+Enter to the previous", async () => {
    const { sent, onGo, user } = setup(null, { "GET /api/v1/runs/r1/search?q=requests": () => ANSWER });
    const box = screen.getByRole("searchbox", { name: "Search this run" });
    await user.type(box, "requests{Enter}");
    await waitFor(() => expect(sent).toHaveLength(1));
    await screen.findByText("4 turns match");
    await user.keyboard("{Enter}");
    expect(onGo).toHaveBeenLastCalledWith(5);
    await user.keyboard("{Enter}");
    expect(onGo).toHaveBeenLastCalledWith(40);
    await user.keyboard("{Shift>}{Enter}{/Shift}");
    expect(onGo).toHaveBeenLastCalledWith(5);
  });

  it("says when the run has no index yet, and when only the first matches are listed", async () => {
    const first = setup(null, {
      "GET /api/v1/runs/r1/search?q=x": () => ({ ...ANSWER, q: "x", indexed: false, total: 0, matches: [], terms: [] }),
    });
    await first.user.type(screen.getByRole("searchbox", { name: "Search this run" }), "x");
    await waitFor(() => expect(screen.getByTestId("run-search-status")).toHaveTextContent("This run's search index is being built"));
    first.view.unmount();
    vi.unstubAllGlobals();

    const second = setup(95, { "GET /api/v1/runs/r1/search?q=x": () => ({ ...ANSWER, q: "x", total: 2000, truncated: true }) });
    await second.user.type(screen.getByRole("searchbox", { name: "Search this run" }), "x");
    await waitFor(() => expect(screen.getByTestId("run-search-status")).toHaveTextContent("2,000 turns match · showing first 4"));
    await second.user.click(screen.getByRole("button", { name: /Next match/ }));
    expect(second.onGo).toHaveBeenLastCalledWith(120);
    // A second step goes on from where the first went (the page has not followed yet): none is listed after 120.
    await second.user.click(screen.getByRole("button", { name: /Next match/ }));
    expect(second.onGo).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId("run-search-status")).toHaveTextContent(
      "No later match than turn 120 among the first listed; narrow the search to see the later ones.",
    );
  });
});
