import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TCopyVersion } from "@/lib/contracts";
import { DEFAULT_COPY } from "@/lib/core";
import { copyVersionsQuery } from "@/lib/queries/copy";
import { fakeApi, renderWithClient, testQueryClient } from "@/components/testing/api";
import { rebuildOutputExample } from "@/lib/testing/contract-text";
import { copyVersion, copyVersionRoutes, recordedRunRoutes, TEACH_COPY, teachingEvents } from "@/components/testing/fixtures";
import { CopyWorkbench } from "./copy-workbench";

const terse = copyVersion({ id: "cv-terse", name: "terse", copy: TEACH_COPY });

/** The project: its copy versions (a save adds one) and the teaching run to preview on. */
function server(versions: TCopyVersion[] = [terse]) {
  return fakeApi({ ...recordedRunRoutes(teachingEvents), ...copyVersionRoutes(versions) });
}

/** The copy page: its server prefetched the project's versions (app/copy/page.tsx), the rest is fetched. */
function renderWorkbench(initialBaseId: string | null, versions: TCopyVersion[] = [terse]) {
  const client = testQueryClient();
  client.setQueryData(copyVersionsQuery().queryKey, { versions });
  return renderWithClient(
    <CopyWorkbench project="demo" initialBaseId={initialBaseId} initialPreview={{ runId: "teach", turn: 10 }} />,
    client,
  );
}

const urlParams = () => Object.fromEntries(new URLSearchParams(window.location.search));

const template = (name: string) => screen.getByRole("textbox", { name: `Template ${name}` });
const lead = () => screen.getByRole("heading", { level: 1, name: "Reminder copy" }).nextElementSibling;
const panel = (name: string) => within(screen.getByRole("region", { name }));
const panelElement = (name: string) => screen.getByRole("region", { name });

beforeEach(() => window.history.replaceState(null, "", "/copy"));
afterEach(() => vi.unstubAllGlobals());

describe("copy workbench", () => {
  it("starts from the built-in default copy: nothing to save until a template changes, then the change is listed", async () => {
    const user = userEvent.setup();
    server();
    renderWorkbench(null);
    expect(lead()).toHaveTextContent(/^Editing from the built-in default copy\./);
    expect(template("requests · any stage")).toHaveValue(DEFAULT_COPY.requests["*"]);
    expect(panelElement("Save as new version")).toHaveTextContent("Nothing changed from the built-in default copy.");
    expect(panelElement("Changes")).toHaveTextContent("No changes from the built-in default copy yet.");
    await waitFor(() => expect(urlParams()).toEqual({ from: "spec", run: "teach", turn: "10" }));

    await user.clear(template("context · any stage"));
    await user.type(template("context · any stage"), "Context {{percent}% full.");
    const changes = within(panel("Changes").getByRole("list", { name: "Changes from the built-in default copy" })).getAllByRole("listitem");
    expect(changes.map((li) => li.getAttribute("data-change"))).toEqual(["changed"]);
    expect(changes[0]).toHaveTextContent(/^context · any stage changed/);
    await user.type(panel("Save as new version").getByRole("textbox", { name: "Name" }), "short context");
    expect(panel("Save as new version").getByRole("button", { name: "Save as new version" })).toBeEnabled();
  });

  it("keeps an unsaved draft in this browser, brings it back with a notice, and discards it on request", async () => {
    const user = userEvent.setup();
    server();
    const first = renderWorkbench("cv-terse");
    await user.clear(template("review · any checkpoint"));
    await user.type(template("review · any checkpoint"), "Look back now.");
    const kept = JSON.parse(window.localStorage.getItem("cuescope:draft:copy:demo:cv-terse")!);
    expect(kept.draft.review["*"]).toBe("Look back now.");
    first.unmount();

    renderWorkbench("cv-terse");
    expect(await screen.findByTestId("draft-restored")).toHaveTextContent(/^Restored your unsaved draft from .*, kept in this browser\./);
    expect(template("review · any checkpoint")).toHaveValue("Look back now.");
    await user.click(screen.getByRole("button", { name: "Discard the draft" }));
    expect(template("review · any checkpoint")).toHaveValue(TEACH_COPY.review!["*"]);
    expect(screen.queryByTestId("draft-restored")).not.toBeInTheDocument();
    expect(window.localStorage.getItem("cuescope:draft:copy:demo:cv-terse")).toBeNull();
  });

  it("asks before a link leaves unsaved edits, and stays when the answer is no", async () => {
    const user = userEvent.setup();
    server();
    renderWorkbench(null);
    // happy-dom has no window.confirm: the test gives one that answers "no".
    const confirm = vi.fn(() => false);
    Object.defineProperty(window, "confirm", { value: confirm, configurable: true, writable: true });
    const away = document.body.appendChild(Object.assign(document.createElement("a"), { href: "/runs", textContent: "Runs" }));
    const clicked = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 });
    away.dispatchEvent(clicked);
    expect(confirm).not.toHaveBeenCalled(); // nothing to lose yet
    expect(clicked.defaultPrevented).toBe(false);
    window.history.replaceState(null, "", "/copy"); // happy-dom followed that link

    await user.type(template("review · any checkpoint"), " now");
    const again = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 });
    away.dispatchEvent(again);
    expect(confirm).toHaveBeenCalledWith(expect.stringMatching(/^Leave with unsaved edits\?/));
    expect(again.defaultPrevented).toBe(true);
    const unload = new Event("beforeunload", { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);
    away.remove();
  });

  it("a template the copy contract refuses is counted in the panel and blocks saving until fixed", async () => {
    const user = userEvent.setup();
    server();
    renderWorkbench(null);
    expect(panel("Templates").getByText(/^(valid|\d+ problems?)$/)).toHaveTextContent("valid");
    await user.type(template("review · any checkpoint"), " {{nope}");
    expect(panel("Templates").getByText(/^(valid|\d+ problems?)$/)).toHaveTextContent("1 problem");
    expect(template("review · any checkpoint")).toHaveAttribute("aria-invalid", "true");
    expect(panelElement("Save as new version")).toHaveTextContent("Fix the problem above first.");
    await user.type(panel("Save as new version").getByRole("textbox", { name: "Name" }), "broken");
    expect(panel("Save as new version").getByRole("button", { name: "Save as new version" })).toBeDisabled();
    await user.clear(template("review · any checkpoint"));
    await user.type(template("review · any checkpoint"), "Checkpoint {{checkpoint}: look back.");
    expect(panel("Templates").getByText(/^(valid|\d+ problems?)$/)).toHaveTextContent("valid");
    expect(panel("Save as new version").getByRole("button", { name: "Save as new version" })).toBeEnabled();
  });

  it("previews every template on the recorded turn as it is typed", async () => {
    const user = userEvent.setup();
    server();
    renderWorkbench("cv-terse");
    const requests = within(document.querySelector<HTMLElement>('[data-template="requests.*"]')!);
    const notice = rebuildOutputExample().turns[0].reminders.find((r) => r.key === "requests")!;
    expect(await requests.findByTestId("template-text")).toHaveTextContent(notice.text);
    await user.clear(template("requests · any stage"));
    await user.type(template("requests · any stage"), "R{{stage}");
    expect(requests.getByTestId("template-text")).toHaveTextContent(/^R2$/);
    expect(requests.getByText(/ vs parent$/)).toHaveTextContent("−16 B vs parent");
    // The refit of the turn follows the draft: the context notice now fits (R8).
    expect(screen.getByTestId("draft-context")).toHaveTextContent("fits 21 B");
  });

  it("saving sends the draft with the version it came from, then edits from the saved version", async () => {
    const user = userEvent.setup();
    const sent = server();
    renderWorkbench("cv-terse");
    await screen.findByText(/^Editing from “terse”\./);
    await user.clear(template("requests · any stage"));
    await user.type(template("requests · any stage"), "R{{stage}");
    const save = panel("Save as new version");
    await user.type(save.getByRole("textbox", { name: "Name" }), "terser");
    await user.click(save.getByRole("button", { name: "Save as new version" }));
    expect(await save.findByRole("status")).toHaveTextContent("Saved “terser”.");
    const post = sent.find((r) => r.method === "POST")!;
    expect(post.body).toEqual({
      name: "terser",
      makeDefault: false,
      parentId: "cv-terse",
      // (keys the parent leaves to the default copy may be sent spelled out)
      copy: expect.objectContaining({ ...TEACH_COPY, requests: { "*": "R{stage}" } }),
    });
    await screen.findByText(/^Editing from “terser”\./);
    expect(panelElement("Changes")).toHaveTextContent("No changes from “terser” yet.");
    await waitFor(() => expect(urlParams().from).toBe("cv-new"));
    const versions = within(screen.getByRole("table", { name: "Copy versions" }));
    within(versions.getByRole("rowheader", { name: "terser" }).closest("tr")!).getByRole("cell", { name: "terse" });
  });

  it("Edit from this replaces the draft with that version and names it in the URL", async () => {
    const user = userEvent.setup();
    server();
    renderWorkbench(null);
    const row = within((await screen.findByRole("rowheader", { name: "terse" })).closest("tr")!);
    await user.click(row.getByRole("button", { name: "Edit from this" }));
    expect(template("requests · any stage")).toHaveValue(TEACH_COPY.requests!["*"]);
    expect(lead()).toHaveTextContent(/^Editing from “terse”\./);
    await waitFor(() => expect(urlParams().from).toBe("cv-terse"));
  });

  it("a version that is not in the project is named, with a way to start from the built-in copy", async () => {
    const user = userEvent.setup();
    server();
    renderWorkbench("cv-gone");
    await screen.findByText('No copy version "cv-gone" in demo.');
    expect(screen.queryByRole("textbox", { name: /^Template / })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Start from the built-in default copy" }));
    expect(template("requests · any stage")).toHaveValue(DEFAULT_COPY.requests["*"]);
  });
});
