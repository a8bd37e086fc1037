import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ZReplayJob, type TReplayJob } from "@/lib/contracts";
import { apiError, fakeApi, renderWithClient, type SentRequest } from "@/components/testing/api";
import { copyVersion, policyVersion, replayOf, roomyEvents, TEACH_COPY, teachingEvents } from "@/components/testing/fixtures";
import { ReplayWorkbench } from "./replay-workbench";

const terse = copyVersion({ id: "cv-terse", name: "terse", copy: { ...TEACH_COPY, requests: { "*": "R{stage}" } } });
const early = policyVersion({ id: "pv-early", name: "early context" });

/** What the server computes for the terse copy over the teaching and roomy runs (see replay-results.test.tsx). */
const result = {
  runs: 2,
  turns: 5,
  ...replayOf([teachingEvents, roomyEvents], { copy: terse.copy }),
  followUp: [
    {
      copy: { fingerprint: "0123456789", label: "Default copy", copyVersionId: null, runs: 2 },
      keys: [{ key: "requests" as const, delivered: 4, followed: 1, rate: 0.25, low: 0.05, high: 0.7 }],
    },
  ],
};

function job(fields: Partial<TReplayJob>): TReplayJob {
  return ZReplayJob.parse({
    id: "job-1",
    status: "running",
    copyVersionId: "cv-terse",
    policyVersionId: null,
    filters: {},
    progress: { totalRuns: 2, doneRuns: 1, totalTurns: 5, doneTurns: 2 },
    result: null,
    error: null,
    reused: false,
    createdAt: "2026-11-30T12:00:00.000Z",
    finishedAt: null,
    ...fields,
  });
}

const done = job({
  status: "done",
  progress: { totalRuns: 2, doneRuns: 2, totalTurns: 5, doneTurns: 5 },
  result,
  finishedAt: "2026-11-30T12:00:03.000Z",
});

/** The project's versions and facets, plus the replay routes a test gives. */
function server(routes: Record<string, (request: SentRequest) => unknown>, versions = { copy: [terse], policy: [early] }) {
  return fakeApi({
    "GET /api/v1/copy-versions": () => ({ versions: versions.copy }),
    "GET /api/v1/policy-versions": () => ({ versions: versions.policy }),
    "GET /api/v1/facets": () => ({ agents: ["etf-agent"], models: ["m-large"], statuses: ["completed"] }),
    "GET /api/v1/replay/matching?maxRuns=500": () => ({ runs: 2, turns: 5, more: false, maxRuns: 500 }),
    "GET /api/v1/replay": () => ({ replays: [] }),
    ...routes,
  });
}

function renderWorkbench(initialJobId: string | null = null) {
  return renderWithClient(<ReplayWorkbench project="demo" initial={{ maxRuns: 500 }} initialJobId={initialJobId} />);
}

beforeEach(() => window.history.replaceState(null, "", "/copy/replay?copy=cv-terse"));
afterEach(() => vi.unstubAllGlobals());

describe("what-if replay workbench", () => {
  it("starts a replay of the chosen version, follows its progress, then shows the result and puts the job in the URL", async () => {
    const user = userEvent.setup();
    let polls = 0;
    const sent = server({
      "POST /api/v1/replay": () => job({}),
      // The first poll still finds it running; the next one finds it done.
      "GET /api/v1/replay/job-1": () => (++polls < 2 ? job({}) : done),
    });
    renderWorkbench();
    await screen.findByRole("option", { name: "terse" });
    await user.selectOptions(screen.getByRole("combobox", { name: "Copy version" }), "terse");
    await user.click(screen.getByRole("button", { name: "Replay" }));

    expect(await screen.findByRole("progressbar", { name: "Replay progress" })).toHaveAttribute("aria-valuenow", "40");
    expect(screen.getByText(/ turns rebuilt/)).toHaveTextContent(/1 of 2 runs · 2 of 5 turns rebuilt/);
    expect(screen.getByRole("button", { name: "Replaying…" })).toBeDisabled();
    screen.getByRole("heading", { name: "Replay with copy “terse”" });

    const summary = await screen.findByText(/turns rebuilt/, { selector: "p[role=status]" }, { timeout: 3000 });
    expect(summary).toHaveTextContent(
      "2 runs · 5 turns rebuilt · 3 turns changed in 2 runs, of which 2 with a reminder delivered, dropped or staged differently",
    );
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Replay" })).toBeEnabled();
    screen.getByRole("table", { name: "Per key, baseline vs what-if" });
    expect(
      screen.getByRole("figure", {
        name: "Dropped reminders (capacity) per key · reminders",
        description: /^Baseline → what-if, per key: requests 0 → 0, time 0 → 0, context 1 → 0, edits 0 → 1\b/,
      }),
    );
    // Small multiples: each key its own chart, scale and change, labelled with its unit.
    expect(screen.getByRole("figure", { name: "context: baseline 1, what-if 0 dropped reminders (−1)" })).toHaveTextContent(
      "context reminders, 0–1",
    );
    expect(screen.getByTestId("delta-dropped-edits")).toHaveTextContent("Δ +1");
    expect(screen.getByTestId("delta-dropped-requests")).toHaveTextContent("Δ no change");
    expect(screen.getByRole("link", { name: /^Turn 10: / })).toHaveAttribute("href", "/copy/replay/job-1/runs/teach/turns/10");
    screen.getByRole("table", { name: "Follow-up with Default copy" });
    expect(window.location.search).toBe("?job=job-1");
    expect(sent.find((r) => r.method === "POST")?.body).toEqual({ copyVersionId: "cv-terse", filters: {}, maxRuns: 500 });
  });

  it("a job id from the URL brings its finished result back without starting anything", async () => {
    const sent = server({ "GET /api/v1/replay/job-1": () => ({ ...done, reused: true }) });
    renderWorkbench("job-1");
    await screen.findByText(/this is that result, kept/);
    screen.getByText("finished 2026-11-30 12:00:03 UTC");
    expect(sent.filter((r) => r.method === "POST")).toEqual([]);
    await waitFor(() => expect(window.location.search).toBe("?job=job-1"));
  });

  it("Cancel stops a running replay, which then says nothing was kept", async () => {
    const user = userEvent.setup();
    const sent = server({
      "GET /api/v1/replay/job-1": () => job({}),
      "POST /api/v1/replay/job-1/cancel": () => job({ status: "cancelled", finishedAt: "2026-11-30T12:00:01.000Z" }),
    });
    renderWorkbench("job-1");
    await user.click(await screen.findByRole("button", { name: "Cancel" }));
    expect(await screen.findByText(/^Cancelled after/)).toHaveTextContent(
      "Cancelled after 1 of 2 runs; nothing was kept. Start it again to see the result.",
    );
    expect(sent.filter((r) => r.method === "POST").map((r) => r.path)).toEqual(["/api/v1/replay/job-1/cancel"]);
  });

  it("a failed replay shows its error, and a refused start the server's reason", async () => {
    const user = userEvent.setup();
    server({
      "GET /api/v1/replay/job-1": () =>
        job({ status: "failed", error: "the run's decisions cannot be rebuilt", policyVersionId: "pv-early" }),
      "POST /api/v1/replay": () => apiError(400, "invalid", "no runs match these filters"),
    });
    renderWorkbench("job-1");
    await screen.findByText("The replay failed: the run's decisions cannot be rebuilt");
    screen.getByRole("heading", { name: "Replay with copy “terse” and policy “early context”" });
    expect(screen.queryByRole("table", { name: "Per key, baseline vs what-if" })).not.toBeInTheDocument();
    await user.selectOptions(screen.getByRole("combobox", { name: "Policy version" }), "early context");
    await user.click(screen.getByRole("button", { name: "Replay" }));
    const form = within(screen.getByRole("form", { name: "Replay settings" }));
    expect(await form.findByRole("alert")).toHaveTextContent("no runs match these filters");
  });

  it("counts the runs and turns the filters match before a replay, and refuses to start on none", async () => {
    const user = userEvent.setup();
    server({
      "GET /api/v1/replay/matching?agent=etf-agent&maxRuns=500": () => ({ runs: 0, turns: 0, more: false, maxRuns: 500 }),
      "GET /api/v1/replay/matching?maxRuns=1": () => ({ runs: 1, turns: 3, more: true, maxRuns: 1 }),
    });
    renderWorkbench();
    await screen.findByRole("option", { name: "terse" });
    await user.selectOptions(screen.getByRole("combobox", { name: "Copy version" }), "terse");
    await screen.findByText("Would rebuild 2 runs · 5 turns");
    await user.selectOptions(screen.getByRole("combobox", { name: "Agent" }), "etf-agent");
    await screen.findByText("No runs match these filters.");
    expect(screen.getByRole("button", { name: "Replay" })).toBeDisabled();
    await user.selectOptions(screen.getByRole("combobox", { name: "Agent" }), "");
    const max = screen.getByRole("spinbutton", { name: "At most this many runs" });
    await user.clear(max);
    await screen.findByText("Would rebuild 1 run · 3 turns (the newest 1; more match)");
  });

  it("lists the recent replays with their status, versions and filters, each linking to its result", async () => {
    server({
      "GET /api/v1/replay": () => ({
        replays: [
          { ...done, result: undefined, reused: undefined, filters: { agent: "etf-agent" } },
          { ...job({ id: "job-0", policyVersionId: "pv-early", copyVersionId: null }), result: undefined, reused: undefined },
        ].map(({ result: _r, reused: _u, ...rest }) => rest),
      }),
    });
    renderWorkbench();
    const table = within(await screen.findByRole("table", { name: "Recent replays" }));
    const rows = table.getAllByRole("row").slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      "copy “terse”done2026-11-30 12:00:00 UTC2 runs · 5 turnsagent etf-agent",
      "policy “early context”running (1 of 2 runs)2026-11-30 12:00:00 UTC2 runs · 5 turnsall runs",
    ]);
    expect(table.getByRole("link", { name: "copy “terse”" })).toHaveAttribute("href", "/copy/replay?job=job-1");
  });

  it("a job that cannot be loaded says why", async () => {
    server({ "GET /api/v1/replay/gone": () => apiError(404, "not_found", 'no replay "gone" in this project') });
    renderWorkbench("gone");
    expect(await screen.findByRole("alert")).toHaveTextContent('no replay "gone" in this project');
  });

  it("without copy versions it points to the copy editor", async () => {
    server({}, { copy: [], policy: [] });
    renderWorkbench();
    expect(await screen.findByRole("link", { name: "write one in the copy editor" })).toHaveAttribute("href", "/copy");
    expect(screen.getByRole("link", { name: "What-if replay" })).toHaveAttribute("aria-current", "page");
  });
});
