import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { run, TIME } from "@/lib/core/spec/builders";
import { driftEvents, runSummaryOf, TEACH_COPY, teachPolicy } from "@/components/testing/fixtures";
import { RunHeader } from "./run-header";

/** A run whose block b1 ran out of edits and whose time meter is on. */
const exhausted = run({ runId: "edits-out", policy: { ...teachPolicy, time: TIME }, copy: TEACH_COPY })
  .turn(0, (t) => t.requests(3).time(60_000).block("b1", 2).block("b2", 1).final(2000).ok([]))
  .turn(1, (t) => t.requests(4).time(120_000).block("b1", 4).final(2000).ok([]))
  .events();

describe("run header", () => {
  it("names the run and who ran it, its status as shape and word, its turns with the skipped ones", () => {
    render(<RunHeader summary={runSummaryOf(driftEvents, { agent: "etf-agent", model: "m-large" })} polling={false} />);
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("compare ETF holdings and fees");
    expect(screen.getByTestId("run-status")).toHaveTextContent("✓completed");
    expect(screen.getByText(/^\d+ turns/)).toHaveTextContent("13 turns (1 skipped)");
    screen.getByText("etf-agent");
    expect(screen.queryByText("updating every 5 s")).not.toBeInTheDocument();
    const summary = runSummaryOf(driftEvents);
    expect(screen.getByRole("link", { name: "Reviewer audit of this run →" })).toHaveAttribute(
      "href",
      `/reviewer?run=${encodeURIComponent(summary.runId)}`,
    );
  });

  it("lists the policy's limits, each in its own unit, with the stage thresholds in the tooltip", () => {
    render(<RunHeader summary={runSummaryOf(driftEvents)} polling={false} />);
    const limits = screen.getByLabelText("Policy limits");
    expect(limits).toHaveTextContent(
      "limits40 requests (4 reserved) · 10,000 B · 4 edits/block · review every 10 turns · Reviewer auto-review on, ≥ 8 requests left",
    );
    expect(screen.getByTitle(/^requests: stages at/)).toHaveAttribute("title", "requests: stages at 50% · 75% · 90% of 36 requests usable");
    expect(screen.queryByText(/min$/, { selector: "[data-policy]" })).not.toBeInTheDocument();
  });

  it("shows the meters at the last rebuilt turn and the reminders by status", () => {
    render(<RunHeader summary={runSummaryOf(driftEvents)} polling={false} />);
    const meters = screen.getByLabelText("Meters at the last rebuilt turn");
    expect(meters).toHaveTextContent(/^last turn29 of 36 requests usable · 8,000 B of 10,000 B · /);
    expect(meters).toHaveTextContent(/reminders ●5 delivered✕2 dropped$/);
  });

  it("names the blocks with no edits left, and the time used of its limit", () => {
    render(<RunHeader summary={runSummaryOf(exhausted)} polling={false} />);
    expect(screen.getByLabelText("Meters at the last rebuilt turn")).toHaveTextContent(
      /^last turn4 of 36 requests usable · 2 min of 30 min · 2,000 B of 10,000 B · 2 blocks edited, b1 at 4 edits \(no edits left\)/,
    );
  });

  it("counts only blocks with at least one edit as edited", () => {
    const published = run({ runId: "published", policy: teachPolicy, copy: TEACH_COPY })
      .turn(0, (t) => t.requests(3).block("b1", 0).block("b2", 0).block("b3", 1).final(2000).ok([]))
      .events();
    render(<RunHeader summary={runSummaryOf(published)} polling={false} />);
    const meters = screen.getByLabelText("Meters at the last rebuilt turn");
    expect(meters).toHaveTextContent("1 block edited");
    expect(meters).not.toHaveTextContent("3 blocks");
  });

  it("a live run says it is updating; a run that cannot be rebuilt says why; no policy says so", () => {
    const summary = runSummaryOf(driftEvents, { status: "live", rebuildError: "waiting for the run's run.started event" });
    render(<RunHeader summary={{ ...summary, policy: null, lastMeters: null }} polling />);
    expect(screen.getByTestId("run-status")).toHaveTextContent("◉live");
    screen.getByText("updating every 5 s");
    expect(screen.getByRole("alert")).toHaveTextContent("The decisions cannot be rebuilt: waiting for the run's run.started event");
    expect(screen.getByLabelText("Policy limits")).toHaveTextContent("no policy recorded");
    expect(screen.queryByLabelText("Meters at the last rebuilt turn")).not.toBeInTheDocument();
  });
});

describe("run header freshness", () => {
  it("says when the figures are behind the run's events, and says nothing once they are current", () => {
    const summary = runSummaryOf(driftEvents);
    const { rerender } = render(<RunHeader summary={{ ...summary, staleEvents: 3 }} polling={false} />);
    expect(screen.getByRole("status")).toHaveTextContent("Updating: 3 newer events not in these figures yet.");
    rerender(<RunHeader summary={{ ...summary, staleEvents: summary.eventCount, rebuildPending: true }} polling={false} />);
    expect(screen.getByRole("status")).toHaveTextContent(`Not rebuilt yet: the rebuild of its ${summary.eventCount} events is queued.`);
    rerender(<RunHeader summary={summary} polling={false} />);
    expect(screen.queryByTestId("run-freshness")).not.toBeInTheDocument();
  });
});
