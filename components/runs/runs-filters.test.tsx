import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useEffect, useState } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { parseRunListUrl, type RunListView } from "@/lib/queries/run-list-url";
import { RunsFilters } from "./runs-filters";
import { useRunsNavigation } from "./use-runs-navigation";

const router = vi.hoisted(() => ({ push: vi.fn(), replace: vi.fn(), url: "/runs", listener: null as ((href: string) => void) | null }));
vi.mock("next/navigation", () => ({
  useRouter: () => ({
    push: (href: string) => {
      router.push(href);
      router.listener?.(href);
    },
    replace: (href: string) => {
      router.replace(href);
      router.listener?.(href);
    },
  }),
}));

const NOW = Date.parse("2026-11-30T12:00:00Z");
const facets = { agents: ["etf-agent", "pdf-agent"], models: ["m-large", "m-small"], statuses: ["live", "completed", "failed"] as const };
const viewOf = (href: string): RunListView => parseRunListUrl(new URL(href, "http://cuescope.test").searchParams, NOW).view;

/** The runs page: the server parses the URL into a view; the filters navigate to new URLs. */
function Page({ href }: { href: string }) {
  const [serverView, setServerView] = useState(() => viewOf(href));
  useEffect(() => {
    router.listener = (next) => setServerView(viewOf(next));
    return () => void (router.listener = null);
  }, []);
  const { view, navigate } = useRunsNavigation(serverView);
  return <RunsFilters view={view} facets={{ ...facets, statuses: [...facets.statuses] }} experiments={EXPERIMENTS} navigate={navigate} />;
}

const arm = (name: string) => ({ name, weight: 1, plannedRuns: 10, copyVersionId: null, policyVersionId: null });
const EXPERIMENTS = [
  {
    id: "exp-copy",
    name: "Requests copy",
    note: "",
    key: "requests",
    status: "running",
    version: 1,
    createdBy: "demo",
    createdAt: "2026-11-01T00:00:00Z",
    startedAt: null,
    stoppedAt: null,
    arms: [arm("control"), arm("urgent")],
  },
  {
    id: "exp-hold",
    name: "Context holdout",
    note: "",
    key: "context",
    status: "draft",
    version: 0,
    createdBy: "demo",
    createdAt: "2026-11-02T00:00:00Z",
    startedAt: null,
    stoppedAt: null,
    arms: [arm("on"), arm("off")],
  },
] as unknown as NonNullable<Parameters<typeof RunsFilters>[0]["experiments"]>;

beforeEach(() => {
  router.push.mockClear();
  router.replace.mockClear();
});

describe("runs list filters ↔ URL", () => {
  it("the controls show what the URL says", () => {
    render(<Page href="/runs?q=fees&status=failed&agent=etf-agent&range=7d&sort=turns" />);
    expect(screen.getByRole("searchbox")).toHaveValue("fees");
    expect(screen.getByRole("combobox", { name: "Status" })).toHaveValue("failed");
    expect(screen.getByRole("combobox", { name: "Agent" })).toHaveValue("etf-agent");
    expect(screen.getByRole("combobox", { name: "Model" })).toHaveValue("");
    expect(screen.getByRole("combobox", { name: "Started" })).toHaveValue("7d");
    expect(screen.getByRole("combobox", { name: "Sort" })).toHaveValue("turns");
    expect(screen.getByRole("link", { name: "Clear filters" })).toHaveAttribute("href", "/runs?sort=turns");
  });

  it("choosing a filter pushes its URL, keeps the others, and starts again at the first page", async () => {
    const user = userEvent.setup();
    render(<Page href="/runs?agent=etf-agent&cursor=abc" />);
    await user.selectOptions(screen.getByRole("combobox", { name: "Model" }), "m-small");
    expect(router.push).toHaveBeenLastCalledWith("/runs?agent=etf-agent&model=m-small");
    expect(screen.getByRole("combobox", { name: "Model" })).toHaveValue("m-small");
    await user.selectOptions(screen.getByRole("combobox", { name: "Agent" }), "All agents");
    expect(router.push).toHaveBeenLastCalledWith("/runs?model=m-small");
  });

  it("filters by an experiment by its name, then by one of its arms; another experiment clears the arm", async () => {
    const user = userEvent.setup();
    render(<Page href="/runs" />);
    expect(screen.queryByRole("combobox", { name: "Arm" })).toBeNull();
    await user.selectOptions(screen.getByRole("combobox", { name: "Experiment" }), "Requests copy");
    expect(router.push).toHaveBeenLastCalledWith("/runs?experiment=exp-copy");
    const arms = screen.getByRole("combobox", { name: "Arm" });
    expect([...arms.querySelectorAll("option")].map((o) => o.textContent)).toEqual(["All arms", "control", "urgent"]);
    await user.selectOptions(arms, "urgent");
    expect(router.push).toHaveBeenLastCalledWith("/runs?experiment=exp-copy&arm=urgent");
    await user.selectOptions(screen.getByRole("combobox", { name: "Experiment" }), "Context holdout");
    expect(router.push).toHaveBeenLastCalledWith("/runs?experiment=exp-hold");
  });

  it("the default sort is left out of the URL; a preset range replaces fixed from/to", async () => {
    const user = userEvent.setup();
    render(<Page href="/runs?from=2026-11-01T00:00:00.000Z&sort=turns" />);
    expect(screen.getByRole("combobox", { name: "Started" })).toHaveDisplayValue(/^from /);
    await user.selectOptions(screen.getByRole("combobox", { name: "Sort" }), "Newest first");
    expect(router.push).toHaveBeenLastCalledWith("/runs?from=2026-11-01T00%3A00%3A00.000Z");
    await user.selectOptions(screen.getByRole("combobox", { name: "Started" }), "Last 24 hours");
    expect(router.push).toHaveBeenLastCalledWith("/runs?range=24h");
  });

  it("search is sent after a pause in typing, replacing the history entry; Enter sends at once", async () => {
    const user = userEvent.setup();
    render(<Page href="/runs?status=live" />);
    const search = screen.getByRole("searchbox");
    await user.type(search, "holdings ");
    expect(router.replace).not.toHaveBeenCalled();
    await waitFor(() => expect(router.replace).toHaveBeenCalledTimes(1));
    expect(router.replace).toHaveBeenCalledWith("/runs?q=holdings&status=live");
    await user.clear(search);
    await user.type(search, "fees{Enter}");
    expect(router.push).toHaveBeenLastCalledWith("/runs?q=fees&status=live");
    // The pending pause after Enter does not send the same search again.
    await act(() => new Promise((r) => setTimeout(r, 350)));
    expect(router.replace).toHaveBeenCalledTimes(1);
    expect(router.push).toHaveBeenCalledTimes(1);
  });

  it("no Clear filters link when nothing narrows the list", () => {
    render(<Page href="/runs?sort=-turns" />);
    expect(screen.queryByRole("link", { name: "Clear filters" })).not.toBeInTheDocument();
  });
});
