import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { turnDetailQuery } from "@/lib/queries/runs";
import { apiError, fakeApi, renderWithClient, testQueryClient } from "@/components/testing/api";
import { driftEvents, turnDetail } from "@/components/testing/fixtures";
import { TurnInspector } from "./turn-inspector";

afterEach(() => vi.unstubAllGlobals());

/** A client already holding the drift run's given turns (as the run page's prefetch leaves it). */
function seeded(turns: number[]) {
  const client = testQueryClient();
  for (const turn of turns) client.setQueryData(turnDetailQuery("drift", turn).queryKey, turnDetail(driftEvents, turn));
  return client;
}

/** The drift run's turns served over the API; a turn can be held back (its request never answers). */
function serveDrift(hold: number[] = []) {
  const routes: Record<string, () => unknown> = {};
  for (const turn of [9, 10, 11, 12, 40]) {
    routes[`GET /api/v1/runs/drift/turns/${turn}`] = () => (hold.includes(turn) ? new Promise(() => {}) : turnDetail(driftEvents, turn));
  }
  return fakeApi(routes);
}

const inspector = (turn: number) => within(screen.getByRole("complementary", { name: `Turn inspector: turn ${turn}` }));
const inspectorElement = (turn: number) => screen.getByRole("complementary", { name: `Turn inspector: turn ${turn}` });

describe("turn inspector", () => {
  it("heads the turn with its reminders by status and its findings, then shows the turn's sections", () => {
    serveDrift();
    renderWithClient(<TurnInspector runId="drift" turn={10} onNavigate={() => {}} />, seeded([9, 10, 11]));
    const panel = inspector(10);
    expect(panel.getByRole("heading", { level: 2 })).toHaveTextContent("Turn 10");
    expect(panel.getByText(/finding/).closest("span")?.parentElement).toHaveTextContent("2 ●delivered2 ✕dropped2 findings");
    panel.getByRole("region", { name: "Fitting" });
    panel.getByRole("region", { name: "Findings" });
  });

  it("moves to the neighbouring turns that exist, with the buttons and with ← →, but not while typing", async () => {
    const user = userEvent.setup();
    serveDrift();
    const onNavigate = vi.fn();
    renderWithClient(
      <>
        <input aria-label="Somewhere to type" />
        <TurnInspector runId="drift" turn={10} onNavigate={onNavigate} />
      </>,
      seeded([9, 10, 11]),
    );
    await user.click(screen.getByRole("button", { name: "Previous turn, turn 9" }));
    expect(onNavigate).toHaveBeenLastCalledWith(9);
    await user.click(screen.getByRole("button", { name: "Next turn, turn 11" }));
    expect(onNavigate).toHaveBeenLastCalledWith(11);
    await user.keyboard("{ArrowLeft}");
    expect(onNavigate).toHaveBeenLastCalledWith(9);
    await user.keyboard("{ArrowRight}");
    expect(onNavigate).toHaveBeenLastCalledWith(11);
    expect(onNavigate).toHaveBeenCalledTimes(4);
    await user.type(screen.getByRole("textbox", { name: "Somewhere to type" }), "{ArrowLeft}{ArrowRight}");
    expect(onNavigate).toHaveBeenCalledTimes(4);
  });

  it("the first turn has no previous one; the neighbours of the shown turn are fetched ahead", async () => {
    const sent = serveDrift();
    renderWithClient(<TurnInspector runId="drift" turn={9} onNavigate={() => {}} />, seeded([9]));
    expect(screen.getByRole("button", { name: "Previous turn (none)" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Next turn, turn 10" })).toBeEnabled();
    // (The turn's comments are read too: components/inspector/comments-section.tsx.)
    await waitFor(() =>
      expect(sent.map((r) => r.path).filter((path) => path.includes("/turns/"))).toEqual(["/api/v1/runs/drift/turns/10"]),
    );
  });

  it("while the next turn loads, the last one stays (its moves disabled); then the new one replaces it", async () => {
    serveDrift([11]);
    const client = seeded([9, 10]);
    const { rerender } = renderWithClient(<TurnInspector runId="drift" turn={10} onNavigate={() => {}} />, client);
    rerender(<TurnInspector runId="drift" turn={11} onNavigate={() => {}} />);
    const panel = inspector(11);
    expect(panel.getByRole("heading", { level: 2 })).toHaveTextContent("Turn 11");
    panel.getByText("loading…");
    expect(panel.getByText(/reminders differ\.$/)).toHaveTextContent("2 of 4 reminders differ.");
    expect(panel.getByRole("button", { name: "Previous turn (none)" })).toBeDisabled();
    expect(panel.getByRole("button", { name: "Next turn (none)" })).toBeDisabled();
    client.setQueryData(turnDetailQuery("drift", 11).queryKey, turnDetail(driftEvents, 11));
    expect(await panel.findByRole("button", { name: "Previous turn, turn 10" })).toBeEnabled();
    expect(panel.queryByText("2 of 4 reminders differ.")).not.toBeInTheDocument();
  });

  it("a skipped turn and a turn without events say so in the header", () => {
    serveDrift();
    const { rerender } = renderWithClient(<TurnInspector runId="drift" turn={12} onNavigate={() => {}} />, seeded([11, 12, 40]));
    expect(inspectorElement(12)).toHaveTextContent("skipped · INCOMPLETE_TURN");
    expect(screen.getByRole("button", { name: "Next turn (none)" })).toBeDisabled();
    rerender(<TurnInspector runId="drift" turn={40} onNavigate={() => {}} />);
    inspector(40).getByText("no events");
    // Turn 40 does not exist: ← goes to the last turn before it.
    expect(screen.getByRole("button", { name: "Previous turn, turn 12" })).toBeEnabled();
  });

  it("a turn that could not be loaded shows the server's reason and a Retry that loads it", async () => {
    const user = userEvent.setup();
    let calls = 0;
    fakeApi({
      "GET /api/v1/runs/drift/turns/10": () =>
        ++calls === 1 ? apiError(503, "unavailable", "the database is busy or unreachable right now") : turnDetail(driftEvents, 10),
    });
    renderWithClient(<TurnInspector runId="drift" turn={10} onNavigate={() => {}} />);
    expect(screen.getByRole("status")).toHaveTextContent("Loading turn 10…");
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Could not load turn 10. the database is busy or unreachable right now");
    inspector(10).getByText("could not load");
    await user.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByText(/reminders differ\.$/)).toHaveTextContent("2 of 4 reminders differ.");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
