import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { fakeApi, renderWithClient } from "@/components/testing/api";
import { copyVersion, recordedRunRoutes, TEACH_COPY, teachingEvents } from "@/components/testing/fixtures";
import { COMPARE_DIRECTIONS, type TReplayWhatIfRun, type TTurnDecision } from "@/lib/contracts";
import { rebuild, summarizeDecisions } from "@/lib/core";
import { compareTurns } from "@/lib/derived/compare/compare-turns";
import { buildTimeline } from "@/lib/derived/timeline/build-timeline";
import { whatIfFindings } from "@/lib/replay/what-if-findings";
import { json } from "@/lib/core/spec/builders";
import { WhatIfCompareView } from "./what-if-compare-view";

// The teaching run replayed with a terse requests notice (as in the replay turn view's test): on
// turn 10 the context notice now fits and the edits state no longer does.
const terse = { ...TEACH_COPY, requests: { "*": "R{stage}" } };
const recorded = rebuild(teachingEvents);
const whatIf = rebuild(teachingEvents, { copy: terse });

/** The turns whose decisions differ, worked out here: reminders' key, subject, kind, stage, status, and the Reviewer decision. */
const differing = (() => {
  const view = (t: TTurnDecision | undefined) =>
    t && {
      reminders: t.reminders.map(({ key, subject, kind, stage, status }) => [key, subject, kind, stage, status]),
      reviewer: t.reviewer,
    };
  const other = new Map(whatIf.turns.map((t) => [t.turn, t]));
  return recorded.turns.filter((t) => JSON.stringify(view(t)) !== JSON.stringify(view(other.get(t.turn)))).map((t) => t.turn);
})();

/** The server's answers: the recorded run, the what-if's timeline and counts, and its comparison from every turn each way. */
function serve() {
  const kept = { ...whatIf, findings: whatIfFindings(whatIf.findings) };
  const { rebuiltTurns, reminders, findings, findingsByCode } = summarizeDecisions(kept);
  const run: TReplayWhatIfRun = json({
    jobId: "job-1",
    runId: "teach",
    copyVersionId: "cv-terse",
    policyVersionId: null,
    rebuiltTurns,
    reminders,
    findings,
    findingsByCode,
    timeline: buildTimeline(kept, teachingEvents),
  });
  const base = "/api/v1/replay/job-1/runs/teach/compare";
  const answer = (query: Parameters<typeof compareTurns>[2]) =>
    json({ a: "teach", b: "teach", ready: true, ...compareTurns(recorded.turns, whatIf.turns, query) });
  const routes: Record<string, () => unknown> = {
    ...recordedRunRoutes(teachingEvents),
    "GET /api/v1/replay/job-1/runs/teach/timeline": () => run,
    "GET /api/v1/copy-versions": () => ({ versions: [copyVersion({ id: "cv-terse", name: "terse", copy: terse })] }),
    "GET /api/v1/policy-versions": () => ({ versions: [] }),
    [`GET ${base}`]: () => answer({ direction: "next" }),
  };
  for (const turn of recorded.turns.map((t) => t.turn))
    for (const direction of COMPARE_DIRECTIONS)
      routes[`GET ${base}?direction=${direction}&turn=${turn}`] = () => answer({ turn, direction });
  return fakeApi(routes);
}

afterEach(() => {
  window.history.replaceState(null, "", "/");
});

describe("the comparison of a recorded run with its what-if", () => {
  it("names B as the replay's what-if, offers no swap, and steps with ] to the first differing decision", async () => {
    expect(differing.length).toBeGreaterThan(0);
    const sent = serve();
    window.history.replaceState(null, "", "/compare?a=teach&replay=job-1");
    renderWithClient(<WhatIfCompareView runId="teach" jobId="job-1" initialTurn={null} initialAlignment="turn" />);

    await screen.findByRole("heading", { level: 1, name: "Compare a run with its what-if" });
    const b = screen.getByRole("region", { name: "Run B" });
    await waitFor(() => expect(within(b).getByTestId("what-if-label").textContent).toBe("teach · what-if (replay job-1: copy “terse”)"));
    expect(
      within(b)
        .getByRole("link", { name: /what-if/ })
        .getAttribute("href"),
    ).toBe("/copy/replay?job=job-1");
    expect(screen.queryByRole("link", { name: "Swap A and B" })).toBeNull();
    await waitFor(() => expect(screen.getByTestId("first-difference").textContent).toBe(`First differing decision: turn ${differing[0]}`));

    await userEvent.keyboard("]");
    const differences = screen.getByRole("region", { name: "Differences" });
    await waitFor(() => expect(within(differences).getByRole("status").textContent).toMatch(new RegExp(`^Turn ${differing[0]}: `)));
    // The first step from before the run is the page's own first answer (asked once, without a turn).
    expect(sent.filter((r) => r.path === "/api/v1/replay/job-1/runs/teach/compare")).toHaveLength(1);
    // The URL is the view's to share: the run, the replay and the turn.
    expect(window.location.pathname + window.location.search).toBe(`/compare?a=teach&replay=job-1&turn=${differing[0]}`);
    expect(within(differences).getByRole("table").textContent).toContain("differs");
    expect(within(differences).getByRole("link", { name: "open in the replay (baseline vs what-if)" }).getAttribute("href")).toBe(
      `/copy/replay/job-1/runs/teach/turns/${differing[0]}`,
    );

    // ] again goes on from there (the next difference, or none).
    await userEvent.keyboard("]");
    const next = differing[1];
    await waitFor(() =>
      expect(within(differences).getByRole("status").textContent).toEqual(
        next === undefined ? "No later turn where the runs decided differently." : expect.stringMatching(new RegExp(`^Turn ${next}: `)),
      ),
    );
    expect(sent.map((r) => r.path)).toContain(`/api/v1/replay/job-1/runs/teach/compare?direction=next&turn=${differing[0]}`);
  });

  it("says the what-if's findings leave out the comparisons with the agent's record", async () => {
    serve();
    renderWithClient(<WhatIfCompareView runId="teach" jobId="job-1" initialTurn={null} initialAlignment="turn" />);
    expect((await screen.findByTestId("findings-note")).textContent).toMatch(/leave out those that compare with the agent's record/);
  });
});
