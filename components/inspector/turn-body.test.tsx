import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { driftEvents, turnDetail } from "@/components/testing/fixtures";
import { TurnBody } from "./turn-body";

const section = (name: string) => within(screen.getByRole("region", { name }));
const sectionElement = (name: string) => screen.getByRole("region", { name });
const rowOf = (table: HTMLElement, name: string) =>
  within(
    within(table)
      .getByRole("rowheader", { name: new RegExp(`^${name}`) })
      .closest("tr")!,
  );

describe("turn inspector: a rebuilt turn where the agent drifted (contract §9 turn 10)", () => {
  it("fitting waterfall: free bytes from the final request, each reminder's cost in R4 order, the drops and what was left", () => {
    render(<TurnBody detail={turnDetail(driftEvents, 10)} />);
    const fitting = section("Fitting");
    expect(fitting.getByText("free for reminders").nextElementSibling).toHaveTextContent("38 B");
    expect(fitting.getByText("required (final request)").nextElementSibling).toHaveTextContent("9,962 B");
    const steps = within(fitting.getByRole("list", { name: "Fitting steps" })).getAllByRole("listitem");
    expect(steps.map((s) => s.textContent?.replace(/\s+/g, " ").trim())).toEqual([
      expect.stringMatching(/^start.*38 B free$/),
      "●requests19 B → 19 B left",
      "✕contextdropped: needs 21 B, 19 B free",
      "●edits · b117 B → 2 B left",
      "✕reviewdropped: needs 20 B, 2 B free",
    ]);
    expect(fitting.getByText(/of reminders included/)).toHaveTextContent("36 B of reminders included · 2 dropped · 2 B free after fitting");
  });

  it("agent vs rebuild: the stage the agent got wrong and the reminder it left out are marked, agreeing rows say so", () => {
    render(<TurnBody detail={turnDetail(driftEvents, 10)} />);
    const diff = section("Agent recorded vs rebuild");
    expect(diff.getByText(/reminders differ\.$/)).toHaveTextContent("2 of 4 reminders differ.");
    const table = diff.getByRole("table", { name: "Agent recorded vs rebuild" });
    const requests = rowOf(table, "requests");
    requests.getByText(/stage differs/);
    expect(requests.getAllByRole("cell").map((c) => c.textContent)).toEqual(["2●delivered", "1"]);
    const edits = rowOf(table, "edits · b1");
    edits.getByText(/missing/);
    expect(edits.getAllByRole("cell").map((c) => c.textContent)).toEqual(["1●delivered", "not listed"]);
    // A dropped reminder is not expected in the agent's list: not listing it is no difference.
    const context = rowOf(table, "context");
    context.getByText("= same");
    expect(context.getAllByRole("cell")[0]).toHaveTextContent("3✕dropped");
  });

  it("findings explained: each code with its title, rule reference and the run's own detail", () => {
    render(<TurnBody detail={turnDetail(driftEvents, 10)} />);
    const findings = section("Findings");
    const items = findings.getAllByRole("listitem");
    expect(items.map((li) => within(li).getByRole("code").textContent)).toEqual(["MISSING_REMINDER", "STAGE_MISMATCH"]);
    expect(items[0]).toHaveTextContent("Missing reminder");
    expect(items[0]).toHaveTextContent('The rebuild put edits "b1" stage 1 in the request (delivered)');
    expect(items[1]).toHaveTextContent("Stage mismatch");
    expect(items[1]).toHaveTextContent("R2, R3");
    expect(items[1]).toHaveTextContent("requests: the agent recorded stage 1, the rebuild says stage 2.");
  });
});

describe("turn inspector: other turns", () => {
  it("a turn with no reminder due and an empty list has no differences and no findings", () => {
    render(<TurnBody detail={turnDetail(driftEvents, 9)} />);
    const diff = section("Agent recorded vs rebuild");
    diff.getByText("The agent's list is [] — it put nothing in the request.");
    diff.getByText("Neither the rebuild nor the agent has a reminder this turn.");
    expect(sectionElement("Findings")).toHaveTextContent("No audit finding on this turn.");
    expect(sectionElement("Fitting")).toHaveTextContent("Nothing to fit.");
  });

  it("a turn without request.final is shown as skipped (R14): no fitting, the agent's list not compared, INCOMPLETE_TURN", () => {
    render(<TurnBody detail={turnDetail(driftEvents, 12)} />);
    screen.getByText("Skipped turn");
    expect(screen.queryByRole("region", { name: "Fitting" })).not.toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Meters" })).not.toBeInTheDocument();
    expect(section("Findings").getByRole("code")).toHaveTextContent("INCOMPLETE_TURN");
  });

  it("a turn with no events says so and shows nothing else", () => {
    render(<TurnBody detail={turnDetail(driftEvents, 40)} />);
    screen.getByText("turn 40 has no events in this run.");
    expect(screen.queryByRole("region")).not.toBeInTheDocument();
  });
});
