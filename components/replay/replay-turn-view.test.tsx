import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiError, fakeApi, renderWithClient } from "@/components/testing/api";
import { copyVersion, replayTurnOf, TEACH_COPY, teachingEvents } from "@/components/testing/fixtures";
import { ReplayTurnView } from "./replay-turn-view";

const router = vi.hoisted(() => ({ push: vi.fn() }));
vi.mock("next/navigation", () => ({ useRouter: () => router }));

// The teaching run replayed with a terse requests notice: on turn 10 the context notice now fits
// (R8) and the edits state no longer does; turn 11 is the next changed turn.
const terse = { ...TEACH_COPY, requests: { "*": "R{stage}" } };
const job = { jobId: "job-1", copyVersionId: "cv-terse", policyVersionId: null };

function serve(turn: number) {
  return fakeApi({
    [`GET /api/v1/replay/job-1/runs/teach/turns/${turn}`]: () => replayTurnOf(teachingEvents, { copy: terse }, turn, job),
    "GET /api/v1/copy-versions": () => ({ versions: [copyVersion({ id: "cv-terse", name: "terse", copy: terse })] }),
    "GET /api/v1/policy-versions": () => ({ versions: [] }),
  });
}

/** A side's reminders as "key · stage N status bytes" lines. */
function reminders(side: string): string[] {
  return within(screen.getByRole("list", { name: `${side} reminders` }))
    .getAllByRole("listitem")
    .map((li) => li.querySelector("p")?.textContent?.replace(/\s+/g, " ").trim() ?? "");
}

beforeEach(() => router.push.mockClear());
afterEach(() => vi.unstubAllGlobals());

describe("replay: one turn, baseline beside the what-if", () => {
  it("names the version tried, lists what changed, and shows each side's reminders, fitting and findings", async () => {
    serve(10);
    renderWithClient(<ReplayTurnView jobId="job-1" runId="teach" turn={10} />);
    await screen.findByRole("heading", { name: "Turn 10: baseline vs copy “terse”" });
    const changes = within(screen.getByRole("region", { name: "What changed" }));
    expect(changes.getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "requests: text (19 → 3 B)",
      "context: dropped → delivered",
      "edits b1: delivered → dropped",
    ]);
    expect(reminders("Baseline")).toEqual([
      "requests · stage 2 ●delivered 19 B",
      "context · stage 3 ✕dropped 21 B, 19 B free",
      "edits b1 · stage 1 ●delivered 17 B",
      "review · checkpoint 1 ✕dropped 20 B, 2 B free",
    ]);
    expect(reminders("What-if")).toEqual([
      "requests · stage 2 ●delivered 3 B",
      "context · stage 3 ●delivered 21 B",
      "edits b1 · stage 1 ✕dropped 17 B, 14 B free",
      "review · checkpoint 1 ✕dropped 20 B, 14 B free",
    ]);
    screen.getByRole("region", { name: "Baseline fitting" });
    screen.getByRole("region", { name: "What-if fitting" });
    // The agent's recorded list matched its own decisions; the what-if has no agent to compare with,
    // so MISSING_REMINDER / UNEXPECTED_REMINDER against the recorded list are not shown there.
    expect(screen.queryByRole("list", { name: "Baseline findings" })).not.toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "What-if findings" })).not.toBeInTheDocument();
    expect(screen.getByTestId("what-if-findings-note")).toHaveTextContent(/left out here: no agent ran with this copy and policy/);
  });

  it("links back to the replay and the run, and steps through the changed turns with links and ← →", async () => {
    const user = userEvent.setup();
    serve(10);
    renderWithClient(<ReplayTurnView jobId="job-1" runId="teach" turn={10} />);
    const nav = within(await screen.findByRole("navigation", { name: "Changed turns" }));
    nav.getByText("first changed turn");
    expect(nav.getByRole("link", { name: "changed turn 11 →" })).toHaveAttribute("href", "/copy/replay/job-1/runs/teach/turns/11");
    expect(screen.getByRole("link", { name: "What-if replay" })).toHaveAttribute("href", "/copy/replay?job=job-1");
    expect(screen.getByRole("link", { name: "teach" })).toHaveAttribute("href", "/runs/teach?turn=10");
    // The same turn of the run against its what-if, in the comparison view.
    expect(screen.getByRole("link", { name: "Compare with the recorded run" })).toHaveAttribute(
      "href",
      "/compare?a=teach&replay=job-1&turn=10",
    );
    await user.keyboard("{ArrowLeft}");
    expect(router.push).not.toHaveBeenCalled();
    await user.keyboard("{ArrowRight}");
    expect(router.push).toHaveBeenCalledWith("/copy/replay/job-1/runs/teach/turns/11");
  });

  it("the last changed turn links back to the one before it", async () => {
    const user = userEvent.setup();
    serve(11);
    renderWithClient(<ReplayTurnView jobId="job-1" runId="teach" turn={11} />);
    const nav = within(await screen.findByRole("navigation", { name: "Changed turns" }));
    nav.getByRole("link", { name: "← changed turn 10" });
    nav.getByText("last changed turn");
    // What the what-if dropped on turn 10 is delivered on turn 11 instead.
    expect(reminders("What-if")).toEqual(["edits b1 · stage 1 ●delivered 17 B", "review · checkpoint 1 ●delivered 20 B"]);
    await user.keyboard("{ArrowLeft}");
    expect(router.push).toHaveBeenCalledWith("/copy/replay/job-1/runs/teach/turns/10");
  });

  it("a turn the replay did not change says its decisions are the same in both", async () => {
    serve(9);
    renderWithClient(<ReplayTurnView jobId="job-1" runId="teach" turn={9} />);
    await screen.findByText("This turn's decisions are the same in both.");
    within(screen.getByRole("region", { name: "What changed" })).getByText("nothing");
    within(screen.getByRole("list", { name: "Baseline reminders" })).getByText("No reminders.");
  });

  it("shows the server's reason when the turn cannot be loaded, with a way back", async () => {
    fakeApi({ "GET /api/v1/replay/job-1/runs/teach/turns/40": () => apiError(404, "not_found", 'no turn 40 in run "teach"') });
    renderWithClient(<ReplayTurnView jobId="job-1" runId="teach" turn={40} />);
    screen.getByText("Loading turn 40…");
    expect(await screen.findByRole("alert")).toHaveTextContent('no turn 40 in run "teach"');
    expect(screen.getByRole("link", { name: "← Back to the replay" })).toHaveAttribute("href", "/copy/replay?job=job-1");
  });
});
