import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ChartFigure } from "./chart-figure";

const table = {
  columns: [
    { key: "key", label: "Key" },
    { key: "baseline", label: "Baseline", unit: "reminders" },
    { key: "whatIf", label: "What-if", unit: "reminders" },
  ],
  rows: [
    { key: "context", baseline: "2", whatIf: "0" },
    { key: "edits", baseline: "0", whatIf: "1" },
  ],
};

function renderFigure() {
  return render(
    <ChartFigure caption="Dropped reminders per key" unit="reminders" summary="Context drops 2 → 0; edits 0 → 1." table={table}>
      <svg data-testid="drawing" />
    </ChartFigure>,
  );
}

describe("ChartFigure", () => {
  it("is a figure named by its caption and described by its summary, the drawing hidden from assistive technology", () => {
    renderFigure();
    const figure = screen.getByRole("figure", { name: "Dropped reminders per key · reminders" });
    expect(figure).toHaveAccessibleDescription("Context drops 2 → 0; edits 0 → 1.");
    expect(screen.getByTestId("drawing").closest("[aria-hidden]")).toHaveAttribute("aria-hidden", "true");
    expect(within(figure).queryByRole("table")).not.toBeInTheDocument();
  });

  it("“View as table” shows the data as a table with row headers and units in the column headers, and back", async () => {
    renderFigure();
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "View as table" }));
    const data = screen.getByRole("table", { name: "Dropped reminders per key (reminders)" });
    expect(
      within(data)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Key", "Baseline (reminders)", "What-if (reminders)"]);
    const row = within(data).getByRole("rowheader", { name: "context" }).closest("tr")!;
    expect([...row.children].map((c) => c.textContent)).toEqual(["context", "2", "0"]);
    expect(screen.queryByTestId("drawing")).not.toBeInTheDocument();
    // The table scrolls in its own named, focusable region on a narrow screen.
    expect(screen.getByRole("region", { name: "Dropped reminders per key, as a table" })).toHaveAttribute("tabindex", "0");

    await user.click(screen.getByRole("button", { name: "View as chart" }));
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    screen.getByTestId("drawing");
  });
});
