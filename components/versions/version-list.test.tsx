import { useQuery } from "@tanstack/react-query";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { copyVersionsQuery, policyVersionsQuery } from "@/lib/queries/copy";
import { apiError, fakeApi, renderWithClient } from "@/components/testing/api";
import { copyVersion, copyVersionRoutes, policyVersion, policyVersionRoutes } from "@/components/testing/fixtures";
import { VersionsPanel } from "./version-list";

afterEach(() => vi.unstubAllGlobals());

/** The editors' wiring: the versions query of their kind feeds the panel. */
function Versions({
  kind,
  baseId,
  onEditFrom,
}: {
  kind: "copy" | "policy";
  baseId: string | null;
  onEditFrom: (id: string | null) => void;
}) {
  const copy = useQuery({ ...copyVersionsQuery(), enabled: kind === "copy" });
  const policy = useQuery({ ...policyVersionsQuery(), enabled: kind === "policy" });
  const query = kind === "copy" ? copy : policy;
  return (
    <VersionsPanel
      kind={kind}
      query={query}
      baseId={baseId}
      builtIn={kind === "copy" ? { label: "Built-in default copy", note: "What runs without copy get." } : undefined}
      onEditFrom={onEditFrom}
    >
      <p>Or start from a run.</p>
    </VersionsPanel>
  );
}

const terse = copyVersion({
  id: "cv-terse",
  name: "terse",
  parentId: "cv-long",
  note: "shorter requests",
  createdAt: "2026-11-30T09:15:00Z",
});
const long = copyVersion({ id: "cv-long", name: "long", isDefault: true, savedBy: "bo" });
const orphan = copyVersion({ id: "cv-orphan", name: "orphan", parentId: "cv-deleted" });

const table = () => screen.getByRole("table", { name: "Copy versions" });
const row = (name: string) =>
  within(
    within(table())
      .getByRole("rowheader", { name: new RegExp(`^${name}`) })
      .closest("tr")!,
  );

describe("versions panel", () => {
  it("lists the saved versions as served: when and by whom, what each came from, its note, and the project default", async () => {
    fakeApi(copyVersionRoutes([terse, long, orphan]));
    renderWithClient(<Versions kind="copy" baseId={null} onEditFrom={() => {}} />);
    await screen.findByText("3 saved");
    const names = within(table())
      .getAllByRole("rowheader")
      .map((th) => th.textContent?.trim());
    expect(names).toEqual(["Built-in default copy", "terse", "long project default", "orphan"]);
    expect(
      row("terse")
        .getAllByRole("cell")
        .map((td) => td.textContent),
    ).toEqual(["2026-11-30 09:15:00 UTC by ana", "long", "shorter requests", expect.stringContaining("Make default")]);
    row("long").getByRole("cell", { name: "Built-in default copy" });
    row("orphan").getByRole("cell", { name: "an earlier version" });
    row("long").getByText(/by bo/);
    // The default is a saved version, so the built-in copy is not marked as the default.
    expect(row("Built-in default copy").queryByText("project default")).not.toBeInTheDocument();
    expect(row("terse").getByRole("link", { name: "Replay" })).toHaveAttribute("href", "/copy/replay?copy=cv-terse");
    expect(row("long").queryByRole("button", { name: "Make default" })).not.toBeInTheDocument();
    screen.getByText("Or start from a run.");
  });

  it("marks the version being edited, and offers every other one (the built-in copy too) to edit from", async () => {
    const user = userEvent.setup();
    fakeApi(copyVersionRoutes([terse, long]));
    const onEditFrom = vi.fn();
    renderWithClient(<Versions kind="copy" baseId="cv-terse" onEditFrom={onEditFrom} />);
    await screen.findByText("2 saved");
    expect(row("terse").getByRole("button", { name: "Editing" })).toBeDisabled();
    expect(
      within(table())
        .getAllByRole("row")
        .filter((tr) => tr.getAttribute("aria-current") === "true"),
    ).toEqual([row("terse").getByRole("rowheader").closest("tr")]);
    await user.click(row("long").getByRole("button", { name: "Edit from this" }));
    expect(onEditFrom).toHaveBeenLastCalledWith("cv-long");
    await user.click(row("Built-in default copy").getByRole("button", { name: "Edit from this" }));
    expect(onEditFrom).toHaveBeenLastCalledWith(null);
  });

  it("Make default asks the server, then shows the list as the server answers it again", async () => {
    const user = userEvent.setup();
    const sent = fakeApi(copyVersionRoutes([terse, long]));
    renderWithClient(<Versions kind="copy" baseId={null} onEditFrom={() => {}} />);
    await screen.findByText("2 saved");
    await user.click(row("terse").getByRole("button", { name: "Make default" }));
    await waitFor(() => row("terse").getByText("project default"));
    expect(row("long").queryByText("project default")).not.toBeInTheDocument();
    row("long").getByRole("button", { name: "Make default" });
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /api/v1/copy-versions",
      "POST /api/v1/copy-versions/cv-terse/default",
      "GET /api/v1/copy-versions",
    ]);
  });

  it("a refused Make default says why and leaves the list as it was", async () => {
    const user = userEvent.setup();
    fakeApi({
      ...policyVersionRoutes([policyVersion({ id: "pv-1", name: "early context" })]),
      "POST /api/v1/policy-versions/pv-1/default": () => apiError(409, "conflict", "the project was archived"),
    });
    renderWithClient(<Versions kind="policy" baseId={null} onEditFrom={() => {}} />);
    const policyRow = within((await screen.findByRole("rowheader", { name: "early context" })).closest("tr")!);
    await user.click(policyRow.getByRole("button", { name: "Make default" }));
    await screen.findByText("the project was archived");
    expect(policyRow.queryByText("project default")).not.toBeInTheDocument();
    // A policy version without a parent came from a run's policy; its replay link names a policy.
    policyRow.getByRole("cell", { name: "a run's policy" });
    expect(policyRow.getByRole("link", { name: "Replay" })).toHaveAttribute("href", "/copy/replay?policy=pv-1");
  });

  it("a list that could not be loaded shows the server's reason instead of a table", async () => {
    fakeApi({ "GET /api/v1/copy-versions": () => apiError(503, "unavailable", "the database is busy or unreachable right now") });
    renderWithClient(<Versions kind="copy" baseId={null} onEditFrom={() => {}} />);
    await screen.findByText("the database is busy or unreachable right now");
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    expect(screen.queryByText(/saved$/)).not.toBeInTheDocument();
  });

  it("without saved versions: the built-in copy is the default; a policy list says there is none yet", async () => {
    fakeApi({ ...copyVersionRoutes([]), ...policyVersionRoutes([]) });
    const { unmount } = renderWithClient(<Versions kind="copy" baseId={null} onEditFrom={() => {}} />);
    await screen.findByText("0 saved");
    row("Built-in default copy").getByText("project default");
    expect(row("Built-in default copy").getByRole("button", { name: "Editing" })).toBeDisabled();
    unmount();
    renderWithClient(<Versions kind="policy" baseId={null} onEditFrom={() => {}} />);
    await screen.findByText("No saved versions yet.");
  });
});
