import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { policyVersionsQuery } from "@/lib/queries/copy";
import { apiError, fakeApi, renderWithClient, testQueryClient } from "@/components/testing/api";
import {
  policyVersion,
  policyVersionRoutes,
  recordedRunRoutes,
  runSummaryOf,
  teachingEvents,
  teachPolicy,
} from "@/components/testing/fixtures";
import { PolicyWorkbench, type PolicyBase } from "./policy-workbench";

const early = policyVersion({
  id: "pv-early",
  name: "early context",
  policy: { ...teachPolicy, context: { capacityBytes: 10_000, stages: [0.5, 0.8] } },
});

/** The project: its policy versions (a save adds one), the teaching run, and a run whose summary fails. */
function server() {
  return fakeApi({
    ...recordedRunRoutes(teachingEvents),
    "GET /api/v1/runs": () => ({
      runs: [runSummaryOf(teachingEvents), { ...runSummaryOf(teachingEvents), runId: "gone" }],
      nextCursor: null,
    }),
    "GET /api/v1/runs/gone": () => apiError(404, "not_found", 'no run "gone" in this project'),
    ...policyVersionRoutes([early]),
  });
}

/** The policy page: its server prefetched the versions and chose where the draft starts (app/copy/policy/page.tsx). */
function renderWorkbench(initialBase: PolicyBase) {
  const client = testQueryClient();
  client.setQueryData(policyVersionsQuery().queryKey, { versions: [early] });
  return renderWithClient(<PolicyWorkbench project="demo" initialBase={initialBase} />, client);
}

const lead = () => screen.getByRole("heading", { level: 1, name: "Reminder policy" }).nextElementSibling;
const panel = (name: string) => within(screen.getByRole("region", { name }));
const panelElement = (name: string) => screen.getByRole("region", { name });
const field = (name: string) => screen.getByRole("textbox", { name });
const urlParams = () => Object.fromEntries(new URLSearchParams(window.location.search));

beforeEach(() => window.history.replaceState(null, "", "/copy/policy"));
afterEach(() => vi.unstubAllGlobals());

describe("policy workbench", () => {
  it("starts from a saved version: its values in the fields, nothing to save until one changes, then the change listed", async () => {
    const user = userEvent.setup();
    server();
    renderWorkbench({ versionId: "pv-early" });
    expect(lead()).toHaveTextContent(/^Editing from “early context”\./);
    expect(field("Context stages")).toHaveValue("0.5, 0.8");
    expect(panelElement("Save as new version")).toHaveTextContent("Nothing changed from “early context”.");
    expect(panelElement("Changes")).toHaveTextContent("No changes from “early context” yet.");
    await waitFor(() => expect(urlParams()).toEqual({ from: "pv-early" }));

    await user.clear(field("Requests request limit"));
    await user.type(field("Requests request limit"), "60");
    await user.click(screen.getByRole("checkbox", { name: "Edits section on" }));
    const changes = within(panel("Changes").getByRole("list", { name: "Changes from “early context”" }));
    expect(changes.getAllByRole("listitem").map((li) => li.textContent)).toEqual(["requests.limit: 40 → 60", "edits: on → off"]);
    expect(panel("Save as new version").queryByText(/^Nothing changed/)).not.toBeInTheDocument();
  });

  it("a field the policy contract refuses is counted, hides the changes and blocks saving", async () => {
    const user = userEvent.setup();
    server();
    renderWorkbench({ versionId: "pv-early" });
    expect(panel("Sections").getByText(/^(valid|\d+ problems?)$/)).toHaveTextContent("valid");
    await user.clear(field("Context stages"));
    await user.type(field("Context stages"), "0.9, 0.5");
    expect(panel("Sections").getByText(/^(valid|\d+ problems?)$/)).toHaveTextContent("1 problem");
    expect(panelElement("Changes")).toHaveTextContent("Fix the problems to see the changes.");
    expect(panelElement("Save as new version")).toHaveTextContent("Fix the problem first.");
  });

  it("saving sends the policy with the version it came from, then edits from the saved version", async () => {
    const user = userEvent.setup();
    const sent = server();
    renderWorkbench({ versionId: "pv-early" });
    await user.clear(field("Requests request limit"));
    await user.type(field("Requests request limit"), "60");
    const save = panel("Save as new version");
    await user.type(save.getByRole("textbox", { name: "Name" }), "more requests");
    await user.click(save.getByRole("button", { name: "Save as new version" }));
    expect(await save.findByRole("status")).toHaveTextContent("Saved “more requests”.");
    expect(sent.find((r) => r.method === "POST")?.body).toEqual({
      name: "more requests",
      makeDefault: false,
      parentId: "pv-early",
      policy: { ...early.policy, requests: { ...early.policy.requests, limit: 60 } },
    });
    await screen.findByText(/^Editing from “more requests”\./);
    await waitFor(() => expect(urlParams()).toEqual({ from: "pv-new" }));
    await screen.findByRole("rowheader", { name: "more requests" });
  });

  it("starts from a recorded run's own policy, chosen from the runs; a run without a readable policy says why", async () => {
    const user = userEvent.setup();
    server();
    renderWorkbench(null);
    expect(lead()).toHaveTextContent(/^Editing from an empty policy\./);
    const picker = screen.getByRole("combobox", { name: "Start from a run's policy" });
    await screen.findByRole("option", { name: "teach" });
    await user.selectOptions(picker, "teach");
    await screen.findByText(/^Editing from run teach's policy\./);
    expect(field("Requests request limit")).toHaveValue(String(teachPolicy.requests.limit));
    await waitFor(() => expect(urlParams()).toEqual({ run: "teach" }));
    await user.selectOptions(picker, "gone");
    await screen.findByText('no run "gone" in this project');
    expect(lead()).toHaveTextContent(/^Editing from run teach's policy\./);
  });

  it("Edit from this on a version replaces the draft started from a run", async () => {
    const user = userEvent.setup();
    server();
    renderWorkbench({ runId: "teach", policy: teachPolicy });
    expect(field("Context stages")).toHaveValue(teachPolicy.context.stages.join(", "));
    await user.click(
      within(screen.getByRole("rowheader", { name: "early context" }).closest("tr")!).getByRole("button", { name: "Edit from this" }),
    );
    expect(field("Context stages")).toHaveValue("0.5, 0.8");
    expect(lead()).toHaveTextContent(/^Editing from “early context”\./);
    await waitFor(() => expect(urlParams()).toEqual({ from: "pv-early" }));
  });
});
