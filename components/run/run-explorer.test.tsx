import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { rebuild } from "@/lib/core";
import { json } from "@/lib/core/spec/builders";
import { buildTimeline } from "@/lib/derived/timeline/build-timeline";
import { apiError, fakeApi, renderWithClient } from "@/components/testing/api";
import { driftEvents, recordedRunRoutes, runSummaryOf } from "@/components/testing/fixtures";
import { RunExplorer } from "./run-explorer";

/**
 * Next's app router, as far as the run page uses it: the path, and search params that follow
 * `history.replaceState` (as Next's router does with native history calls).
 */
const history = vi.hoisted(() => ({ listeners: new Set<() => void>() }));
vi.mock("next/navigation", async () => {
  const { useSyncExternalStore } = await import("react");
  const subscribe = (listener: () => void) => {
    history.listeners.add(listener);
    return () => void history.listeners.delete(listener);
  };
  return {
    usePathname: () => window.location.pathname,
    useSearchParams: () => new URLSearchParams(useSyncExternalStore(subscribe, () => window.location.search)),
  };
});

const replaceState = window.history.replaceState.bind(window.history);
beforeEach(() => {
  vi.spyOn(window.history, "replaceState").mockImplementation((...args) => {
    replaceState(...args);
    for (const listener of history.listeners) listener();
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** The drift run served over the API (turns 9–12), plus `routes` a test adds or replaces. */
function renderRunPage(search: string, routes: Record<string, () => unknown> = {}) {
  replaceState(null, "", `/runs/drift${search}`);
  fakeApi({ ...recordedRunRoutes(driftEvents), ...routes });
  return renderWithClient(<RunExplorer runId="drift" />);
}

const inspectorOpen = () => screen.queryByRole("complementary", { name: /^Turn inspector/ });

describe("run page", () => {
  it("without a selected turn: the run's header, charts, lanes and findings, and a hint to pick a turn", async () => {
    renderRunPage("");
    await screen.findByRole("heading", { level: 1, name: "compare ETF holdings and fees" });
    expect(await screen.findByTestId("turn-window")).toHaveTextContent("whole run: turns 9–11");
    screen.getByRole("heading", { name: /^Requests/ });
    await screen.findByRole("heading", { name: "Review, Reviewer and notifications" });
    await screen.findByRole("heading", { name: "Findings (6)" });
    screen.getByText("No turn selected.");
    expect(inspectorOpen()).not.toBeInTheDocument();
  });

  it("the turn in the URL opens the inspector on it; closing it takes the turn out of the URL", async () => {
    const user = userEvent.setup();
    renderRunPage("?turn=10");
    await screen.findByText("2 of 4 reminders differ.");
    expect(inspectorOpen()).toHaveAccessibleName("Turn inspector: turn 10");
    await user.click(screen.getByRole("button", { name: "Close the turn inspector" }));
    expect(window.location.search).toBe("");
    expect(inspectorOpen()).not.toBeInTheDocument();
    screen.getByText("No turn selected.");
  });

  it("a finding's turn and the inspector's → select turns in place, in the URL", async () => {
    const user = userEvent.setup();
    renderRunPage("");
    const findings = await screen.findByLabelText("Turns with STAGE_MISMATCH");
    await user.click(within(findings).getByRole("link", { name: "Stage mismatch at turn 10" }));
    expect(window.location.search).toBe("?turn=10");
    await screen.findByText("2 of 4 reminders differ.");
    await user.click(screen.getByRole("button", { name: "Next turn, turn 11" }));
    expect(window.location.search).toBe("?turn=11");
    await screen.findByRole("complementary", { name: "Turn inspector: turn 11" });
  });

  it("a zoom window in the URL is fetched at full resolution and shown against the whole run", async () => {
    const user = userEvent.setup();
    const windowed = json(buildTimeline(rebuild(driftEvents), driftEvents, { fromTurn: 10, toTurn: 11 }));
    renderRunPage("?from=10&to=11&turn=10", { "GET /api/v1/runs/drift/timeline?from=10&to=11": () => windowed });
    expect(await screen.findByTestId("turn-window")).toHaveTextContent("showing turns 10–11 of turns 9–11");
    await user.click(screen.getByRole("button", { name: "Whole run" }));
    expect(window.location.search).toBe("?turn=10");
    await waitFor(() => expect(screen.getByTestId("turn-window")).toHaveTextContent("whole run: turns 9–11"));
  });

  it("a live run says it is updating", async () => {
    renderRunPage("", { "GET /api/v1/runs/drift": () => runSummaryOf(driftEvents, { status: "live" }) });
    await screen.findByText("updating every 5 s");
  });

  it("what could not be loaded says why, with a retry", async () => {
    const user = userEvent.setup();
    let summaryCalls = 0;
    renderRunPage("", {
      "GET /api/v1/runs/drift": () =>
        ++summaryCalls === 1 ? apiError(503, "unavailable", "the database is busy") : runSummaryOf(driftEvents),
      "GET /api/v1/runs/drift/timeline": () => apiError(409, "conflict", "the run's decisions cannot be rebuilt"),
    });
    const alerts = await screen.findAllByRole("alert");
    expect(alerts.map((a) => a.textContent)).toEqual(
      expect.arrayContaining([
        expect.stringContaining("Could not load the run. the database is busy"),
        expect.stringContaining("Could not load the timeline. the run's decisions cannot be rebuilt"),
      ]),
    );
    await user.click(within(alerts.find((a) => a.textContent?.includes("the run."))!).getByRole("button", { name: "Retry" }));
    await screen.findByRole("heading", { level: 1, name: "compare ETF holdings and fees" });
  });
});
