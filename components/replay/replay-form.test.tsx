import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runFacetsQuery } from "@/lib/queries/runs";
import { fakeApi, renderWithClient, testQueryClient } from "@/components/testing/api";
import { copyVersion, policyVersion } from "@/components/testing/fixtures";
import { replayRequest, type ReplayChoice } from "@/lib/queries/replay-choice";
import { ReplayForm } from "./replay-form";

const copyVersions = [copyVersion({ id: "cv-terse", name: "terse", isDefault: true }), copyVersion({ id: "cv-long", name: "long" })];
const policyVersions = [policyVersion({ id: "pv-early", name: "early context" })];

beforeEach(() => void fakeApi({}));
afterEach(() => vi.unstubAllGlobals());

function renderForm(initial: Partial<ReplayChoice> = {}, props: { busy?: boolean; error?: string | null } = {}) {
  const client = testQueryClient();
  client.setQueryData(runFacetsQuery().queryKey, {
    agents: ["etf-agent", "pdf-agent"],
    models: ["m-large"],
    statuses: ["completed", "failed"],
  });
  const onStart = vi.fn();
  renderWithClient(
    <ReplayForm
      initial={{ maxRuns: 500, ...initial }}
      copyVersions={copyVersions}
      policyVersions={policyVersions}
      busy={props.busy ?? false}
      error={props.error ?? null}
      onStart={onStart}
    />,
    client,
  );
  return onStart;
}

const select = (name: string) => screen.getByRole("combobox", { name });
const optionTexts = (name: string) => [...(select(name) as HTMLSelectElement).options].map((o) => o.textContent);

describe("replay settings", () => {
  it("offers the saved versions (the default marked) and the project's facets, each run keeping its own by default", () => {
    renderForm();
    expect(optionTexts("Copy version")).toEqual(["Each run's own copy", "terse (default)", "long"]);
    expect(optionTexts("Policy version")).toEqual(["Each run's own policy", "early context"]);
    expect(optionTexts("Agent")).toEqual(["All agents", "etf-agent", "pdf-agent"]);
    expect(optionTexts("Status")).toEqual(["All statuses", "completed", "failed"]);
    expect(select("Copy version")).toHaveValue("");
  });

  it("cannot start until a copy or a policy version is chosen", async () => {
    const user = userEvent.setup();
    const onStart = renderForm();
    const replay = screen.getByRole("button", { name: "Replay" });
    expect(replay).toBeDisabled();
    screen.getByText("Choose a copy version, a policy version, or both.");
    await user.selectOptions(select("Policy version"), "early context");
    expect(replay).toBeEnabled();
    expect(screen.queryByText(/Choose a copy version/)).not.toBeInTheDocument();
    await user.selectOptions(select("Policy version"), "Each run's own policy");
    expect(replay).toBeDisabled();
    expect(onStart).not.toHaveBeenCalled();
  });

  it("starts with the versions, filters and run limit chosen", async () => {
    const user = userEvent.setup();
    const onStart = renderForm();
    await user.selectOptions(select("Copy version"), "terse (default)");
    await user.selectOptions(select("Agent"), "pdf-agent");
    await user.selectOptions(select("Started"), "Last 7 days");
    await user.type(screen.getByRole("searchbox", { name: "Task contains" }), "fees");
    // Typed over the whole value: an emptied field reads 1 at once (see the next test).
    await user.type(screen.getByRole("spinbutton", { name: "At most this many runs" }), "20", {
      initialSelectionStart: 0,
      initialSelectionEnd: 3,
    });
    await user.click(screen.getByRole("button", { name: "Replay" }));
    expect(onStart).toHaveBeenCalledWith({ maxRuns: 20, copyVersionId: "cv-terse", agent: "pdf-agent", range: "7d", q: "fees" });
  });

  it("keeps the run limit within 1–5000 whatever is typed", async () => {
    const user = userEvent.setup();
    renderForm();
    const maxRuns = screen.getByRole("spinbutton", { name: "At most this many runs" });
    await user.clear(maxRuns);
    await user.type(maxRuns, "90000");
    expect(maxRuns).toHaveValue(5000);
    await user.clear(maxRuns);
    expect(maxRuns).toHaveValue(1);
  });

  it("a shown replay's fixed window is kept until a preset range replaces it", async () => {
    const user = userEvent.setup();
    const onStart = renderForm({ copyVersionId: "cv-long", from: "2026-11-01T00:00:00.000Z", to: "2026-11-08T00:00:00.000Z" });
    expect(select("Started")).toHaveDisplayValue("from 2026-11-01 00:00:00 UTC to 2026-11-08 00:00:00 UTC");
    await user.selectOptions(select("Started"), "Last 24 hours");
    await user.click(screen.getByRole("button", { name: "Replay" }));
    expect(onStart).toHaveBeenCalledWith(expect.objectContaining({ range: "24h", from: undefined, to: undefined }));
  });

  it("while a replay runs the button says so and is disabled; a refused start shows the server's reason", () => {
    renderForm({ copyVersionId: "cv-long" }, { busy: true, error: "no runs match these filters" });
    expect(screen.getByRole("button", { name: "Replaying…" })).toBeDisabled();
    expect(screen.getByRole("alert")).toHaveTextContent("no runs match these filters");
  });
});

describe("the replay request sent for a choice", () => {
  const now = Date.parse("2026-11-30T12:34:56.789Z");

  it("turns a preset range into a `from` instant (to the minute) and leaves out what was not chosen", () => {
    expect(replayRequest({ copyVersionId: "cv-1", range: "24h", q: "  fees ", maxRuns: 50 }, now)).toEqual({
      copyVersionId: "cv-1",
      policyVersionId: undefined,
      filters: { q: "fees", from: "2026-11-29T12:34:00.000Z" },
      maxRuns: 50,
    });
  });

  it("keeps a fixed window as it is, and drops a blank search", () => {
    const request = replayRequest(
      { policyVersionId: "pv-1", q: "  ", from: "2026-11-01T00:00:00.000Z", status: "failed", maxRuns: 9 },
      now,
    );
    expect(request.filters).toEqual({ status: "failed", from: "2026-11-01T00:00:00.000Z" });
  });
});
