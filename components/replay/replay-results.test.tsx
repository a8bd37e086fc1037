import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { replayOf, roomyEvents, TEACH_COPY, teachingEvents } from "@/components/testing/fixtures";
import { ChangedTurns } from "./changed-turns";
import { KeyStatsTable } from "./key-stats-table";

// What-if: the teaching copy with a terse requests notice (3 B instead of 19 B). On the teaching
// run's turn 10 the context notice now fits first (R8) and the edits state no longer does; on
// turn 11 the context notice is no longer due (already delivered). The roomy run only changes wording.
const result = replayOf([teachingEvents, roomyEvents], { copy: { ...TEACH_COPY, requests: { "*": "R{stage}" } } });

/** A key's row as { column header: cell text }. */
function keyRow(key: string): Record<string, string> {
  const table = screen.getByRole("table", { name: "Per key, baseline vs what-if" });
  const headers = within(table)
    .getAllByRole("columnheader")
    .map((h) => h.textContent ?? "");
  const tr = within(table).getByRole("rowheader", { name: key }).closest("tr")!;
  const cells = [...tr.children].map((c) => c.textContent ?? "");
  return Object.fromEntries(headers.map((h, i) => [h, cells[i]]));
}

describe("replay result: per key, baseline vs what-if", () => {
  it("writes each change with its sign, counts as reminders and bytes with their unit", () => {
    render(<KeyStatsTable keys={result.keys} />);
    expect(keyRow("requests")).toEqual({
      Key: "requests",
      Candidates: "2 → 2 (=)",
      Delivered: "2 → 2 (=)",
      Dropped: "0 → 0 (=)",
      "Bytes included": "38 B → 6 B (−32 B)",
      "Drop rate": "0% → 0%",
    });
    expect(keyRow("edits")).toMatchObject({
      Delivered: "2 → 1 (−1)",
      Dropped: "0 → 1 (+1)",
      "Bytes included": "34 B → 17 B (−17 B)",
      "Drop rate": "0% → 50%",
    });
    expect(keyRow("context")).toMatchObject({ Candidates: "2 → 1 (−1)", Dropped: "1 → 0 (−1)", "Drop rate": "50% → 0%" });
    // A key without candidates has no drop rate rather than 0%.
    expect(keyRow("time")["Drop rate"]).toBe("— → —");
    screen.getByText(/Counts are reminders; bytes are the reminders' cost/);
  });

  it("the delivered and dropped cells carry their own test ids for the e2e suite", () => {
    render(<KeyStatsTable keys={result.keys} />);
    expect(screen.getByTestId("dropped-edits")).toHaveTextContent("0 → 1 (+1)");
    expect(screen.getByTestId("delivered-edits")).toHaveTextContent("2 → 1 (−1)");
  });
});

describe("replay result: changed turns", () => {
  it("lists by default only turns where a reminder's fate changed, each linking to its side-by-side view", () => {
    render(<ChangedTurns jobId="job-1" runs={result.changedRuns} />);
    const toggle = screen.getByRole("checkbox", { name: /^Only turns where a reminder was delivered, dropped/ });
    expect(toggle).toBeChecked();
    screen.getByRole("link", { name: "teach" });
    expect(screen.queryByRole("link", { name: "roomy" })).not.toBeInTheDocument();
    const chips = within(screen.getByRole("list", { name: "Changed turns of teach" })).getAllByRole("link");
    // The chip's name is its spoken sentence (its content, so the short visible chip is part of no mismatch).
    expect(chips).toEqual([
      screen.getByRole("link", { name: "Turn 10: requests: text (19 → 3 B); context: dropped → delivered; edits b1: delivered → dropped" }),
      screen.getByRole("link", { name: "Turn 11: context: gone (was delivered)" }),
    ]);
    // Each chip says what changed, not only the turn's number.
    expect(chips.map((a) => a.querySelector('[aria-hidden="true"]')?.textContent)).toEqual([
      "10 · requests reworded · context ✕→● +1 more",
      "11 · context ●→gone",
    ]);
    expect(chips[0]).toHaveAttribute("href", "/copy/replay/job-1/runs/teach/turns/10");
    // The run against its what-if in the comparison view (docs/compare.md).
    expect(screen.getByRole("link", { name: "Compare with the recorded run (teach)" })).toHaveAttribute(
      "href",
      "/compare?a=teach&replay=job-1",
    );
    expect(screen.getByText(/ with a different outcome/)).toHaveTextContent(/2 changed turns, 2 with a different outcome/);
  });

  it("switching the filter off shows runs whose turns were only reworded", async () => {
    const user = userEvent.setup();
    render(<ChangedTurns jobId="job-1" runs={result.changedRuns} />);
    await user.click(screen.getByRole("checkbox"));
    screen.getByRole("link", { name: "roomy" });
    screen.getByText(/1 changed turn, 0 with a different outcome/);
    within(screen.getByRole("list", { name: "Changed turns of roomy" })).getByRole("link", { name: "Turn 3: requests: text (19 → 3 B)" });
  });

  it("with only rewording, the filter starts off; with no change at all, it says the what-if matches", () => {
    const reworded = result.changedRuns.filter((r) => r.runId === "roomy");
    const { unmount } = render(<ChangedTurns jobId="job-1" runs={reworded} />);
    expect(screen.getByRole("checkbox")).not.toBeChecked();
    screen.getByRole("link", { name: "roomy" });
    unmount();
    render(<ChangedTurns jobId="job-1" runs={replayOf([roomyEvents], { copy: TEACH_COPY }).changedRuns} />);
    screen.getByText(/No turn's decisions changed/);
  });
});
