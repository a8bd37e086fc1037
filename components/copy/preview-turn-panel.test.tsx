import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TRunListResponse, TRunSummary } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { json } from "@/lib/core/spec/builders";
import { buildTimeline } from "@/lib/derived/timeline/build-timeline";
import { draftFrom, type CopyDraft } from "@/lib/copy/templates";
import { runsListQuery, runSummaryQuery, runTimelineQuery, turnDetailQuery } from "@/lib/queries/runs";
import { rebuildOutputExample } from "@/lib/testing/contract-text";
import { TEACH_COPY, teachingEvents, teachPolicy, turnDetail } from "@/components/testing/fixtures";
import { PreviewTurnPanel } from "./preview-turn-panel";
import { usePreviewTurn, type PreviewTarget } from "./use-preview-turn";

/** A query client holding what the API would serve for the teaching run; anything else is not fetched. */
function seededClient(): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const decisions = json(rebuild(teachingEvents));
  // The panel reads only the run ids of the list and the policy of the summary.
  client.setQueryData(runsListQuery({}).queryKey, {
    runs: [{ runId: "teach" }, { runId: "other" }],
    nextCursor: null,
  } as unknown as TRunListResponse);
  client.setQueryData(runSummaryQuery("teach").queryKey, { runId: "teach", policy: teachPolicy } as unknown as TRunSummary);
  client.setQueryData(runTimelineQuery("teach").queryKey, json(buildTimeline(decisions, teachingEvents)));
  for (const turn of [9, 10, 11]) client.setQueryData(turnDetailQuery("teach", turn).queryKey, turnDetail(teachingEvents, turn));
  return client;
}

function Panel({ initial, draft, problems = 0 }: { initial: PreviewTarget; draft: CopyDraft; problems?: number }) {
  const preview = usePreviewTurn(initial);
  return <PreviewTurnPanel preview={preview} draft={draft} problems={problems} />;
}

function renderPanel(initial: PreviewTarget, draft = draftFrom(TEACH_COPY), problems = 0) {
  const client = seededClient();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return render(<Panel initial={initial} draft={draft} problems={problems} />, { wrapper });
}

const fetchStub = vi.fn(() => new Promise<Response>(() => {}));
beforeEach(() => vi.stubGlobal("fetch", fetchStub));
afterEach(() => vi.unstubAllGlobals());

/** The refit table's rows as [reminder, recorded, draft] texts. */
function refitRows(): string[][] {
  const table = screen.getByRole("table", { name: "This turn's reminders, recorded copy vs draft" });
  return within(table)
    .getAllByRole("row")
    .slice(1)
    .map((tr) => [...tr.children].map((c) => (c.textContent ?? "").replace(/\s+/g, " ").trim()));
}

describe("copy editor: the preview turn's refit table", () => {
  it("with the run's own copy, the draft column reproduces the recorded fitting", () => {
    renderPanel({ runId: "teach", turn: 10 });
    // The recorded fitting of contract §6's example output (turn 10 of the worked example).
    const example = rebuildOutputExample().turns[0];
    expect(screen.getByTestId("free-bytes")).toHaveTextContent(`${example.capacityBytes! - example.requiredBytes} B`);
    const labels = ["requests · stage 2", "context · stage 3", "edits b1 · stage 1", "review · checkpoint 1"];
    const mark = (status: string) => (status === "delivered" ? "●" : "✕");
    const delivered = example.reminders.filter((r) => r.status === "delivered");
    const included = `${delivered.length} · ${delivered.reduce((sum, r) => sum + r.bytes, 0)} B`;
    expect(refitRows()).toEqual([
      ...example.reminders.map((r, i) => [
        labels[i],
        `${mark(r.status)}${r.status} ${r.bytes} B`,
        `${mark(r.status)}${r.status} ${r.status === "delivered" ? "fits" : "dropped"} ${r.bytes} B`,
      ]),
      ["Included", included, included],
    ]);
    expect(screen.getByRole("link", { name: "Open turn 10 in the run" })).toHaveAttribute("href", expect.stringContaining("teach"));
    expect(fetchStub).not.toHaveBeenCalled();
  });

  it("a shorter requests notice lets the context notice fit first, and the edits state no longer does (R8)", () => {
    const draft = draftFrom(TEACH_COPY);
    draft.requests = { "*": "R{stage}" };
    renderPanel({ runId: "teach", turn: 10 }, draft);
    expect(screen.getByTestId("draft-requests")).toHaveTextContent("fits 3 B");
    expect(screen.getByTestId("draft-context")).toHaveTextContent("fits 21 B");
    expect(screen.getByTestId("draft-edits")).toHaveTextContent("dropped 17 B");
    expect(screen.getByTestId("draft-included")).toHaveTextContent("2 · 24 B");
  });

  it("while the draft has a problem its column is greyed and claims no fit", () => {
    renderPanel({ runId: "teach", turn: 10 }, draftFrom(TEACH_COPY), 1);
    expect(screen.getByTestId("refit-held")).toHaveTextContent("The draft has a problem: its fit on this turn is not judged");
    expect(screen.getByTestId("draft-requests")).toHaveTextContent(/^not judged$/);
    expect(screen.getByTestId("draft-included")).toHaveTextContent("—");
    expect(screen.queryByText(/fits/)).not.toBeInTheDocument();
  });

  it("steps to the next turn with a drop, and a turn without reminders says so", async () => {
    const user = userEvent.setup();
    renderPanel({ runId: "teach", turn: 9 });
    screen.getByText("No reminder was due on this turn.");
    expect(screen.getByRole("button", { name: "← Previous drop" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Next drop →" }));
    expect(screen.getByRole("spinbutton", { name: "Preview turn number" })).toHaveValue(10);
    expect(screen.getByTestId("free-bytes")).toHaveTextContent("38 B");
    expect(screen.getByRole("button", { name: "Next drop →" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "← Previous drop" })).toBeDisabled();
  });

  it("without a turn, the run's most telling turn is chosen (a dropped context notice)", () => {
    renderPanel({ runId: "teach", turn: null });
    expect(screen.getByRole("spinbutton", { name: "Preview turn number" })).toHaveValue(10);
    expect(screen.getByRole("combobox", { name: "Preview run" })).toHaveValue("teach");
  });

  it("without recorded runs it says how to get one", () => {
    renderPanel({ runId: null, turn: null });
    screen.getByText(/No recorded runs yet/);
    screen.getByRole("option", { name: "Choose a run" });
  });
});
