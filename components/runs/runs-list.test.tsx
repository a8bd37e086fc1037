import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TRunListItem } from "@/lib/contracts";
import { queryInput } from "@/lib/queries/api-input";
import { parseRunListUrl } from "@/lib/queries/run-list-url";
import { apiError, fakeApi, renderWithClient } from "@/components/testing/api";
import { runListItem } from "@/components/testing/fixtures";
import { RunsList } from "./runs-list";

vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn(), replace: vi.fn() }) }));

const NOW = Date.parse("2026-11-30T12:00:00.000Z");
const facets = { agents: ["etf-agent"], models: ["m-large"], statuses: ["live", "completed"] };

/** The runs page at `href`: the server parsed its URL; the list and facets come from the API. */
function renderList(href: string, answer: () => unknown) {
  const parsed = parseRunListUrl(new URL(href, "http://cuescope.test").searchParams, NOW);
  if (!parsed.ok) throw new Error(`bad test URL ${href}`);
  const query = new URLSearchParams(queryInput(parsed.filters)).toString();
  const sent = fakeApi({ [`GET /api/v1/runs${query ? `?${query}` : ""}`]: answer, "GET /api/v1/facets": () => facets });
  renderWithClient(
    <RunsList project="demo" view={parsed.view} filters={parsed.filters} now={NOW} ingestUrl="http://cuescope.test/api/v1/ingest" />,
  );
  return sent;
}

const page = (runs: TRunListItem[], nextCursor: string | null = null) => ({ runs, nextCursor });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("runs list page", () => {
  it("lists the page's runs with their count, a replay of the same runs, and the end of the list", async () => {
    renderList("/runs?agent=etf-agent", () => page([runListItem({ runId: "a" }), runListItem({ runId: "b" })]));
    expect(screen.getByLabelText("Loading runs")).toHaveAttribute("aria-busy", "true");
    await screen.findByRole("table", { name: "Runs" });
    expect(screen.getByText(/^project/).closest("span")).toHaveTextContent("project demo · 2 runs · What-if replay of these runs →");
    expect(screen.getByRole("link", { name: "What-if replay of these runs →" })).toHaveAttribute("href", "/copy/replay?agent=etf-agent");
    const pages = within(screen.getByRole("navigation", { name: "Pages" }));
    pages.getByText("First page");
    pages.getByText("End of list");
    expect(screen.queryByText(/refreshing/)).not.toBeInTheDocument();
  });

  it("says it refreshes while a listed run is live", async () => {
    renderList("/runs", () => page([runListItem({ runId: "a", status: "live" })]));
    await screen.findByText(/Live · refreshing every 10 s/);
    expect(screen.getByText(/^project/).closest("span")).toHaveTextContent("1 run ·");
  });

  it("pages on with the server's cursor; a later page links back to the first", async () => {
    renderList("/runs?sort=turns", () => page([runListItem({ runId: "a" })], "c2"));
    const pages = within(await screen.findByRole("navigation", { name: "Pages" }));
    expect(pages.getByRole("link", { name: "Next page →" })).toHaveAttribute("href", "/runs?sort=turns&cursor=c2");
    expect(screen.getByText(/^project/).closest("span")).toHaveTextContent("1 run on this page");
  });

  it("a later page offers the first page again", async () => {
    renderList("/runs?status=live&cursor=c2", () => page([runListItem({ runId: "z" })]));
    const pages = within(await screen.findByRole("navigation", { name: "Pages" }));
    pages.getByText("Later page");
    expect(pages.getByRole("link", { name: "← First page" })).toHaveAttribute("href", "/runs?status=live");
  });

  it("an empty project explains how to send a run's first events, and copies the example", async () => {
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, "writeText").mockResolvedValue();
    renderList("/runs", () => page([]));
    await screen.findByRole("heading", { name: "No runs in project “demo” yet" });
    const example = screen.getByLabelText("Example: send a run.started event with curl");
    expect(example).toHaveTextContent("http://cuescope.test/api/v1/ingest");
    screen.getByText(/to a key of this project/);
    await user.click(screen.getByRole("button", { name: "Copy" }));
    expect(writeText).toHaveBeenCalledWith(example.textContent);
    await screen.findByRole("button", { name: "Copied ✓" });
  });

  it("when the filters match nothing it says so and links to the list without them (sort kept)", async () => {
    renderList("/runs?status=live&q=fees&sort=turns", () => page([]));
    await screen.findByRole("heading", { name: "No runs match these filters" });
    expect(screen.getByRole("link", { name: "clear the filters" })).toHaveAttribute("href", "/runs?sort=turns");
    // The project has runs: first-run onboarding would mislead.
    expect(screen.queryByLabelText("Example: send a run.started event with curl")).not.toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Send the first events" })).not.toBeInTheDocument();
  });

  it("a list that could not be loaded shows the server's reason, and Try again loads it", async () => {
    const user = userEvent.setup();
    let calls = 0;
    renderList("/runs", () =>
      ++calls === 1 ? apiError(503, "unavailable", "the database is busy or unreachable right now") : page([runListItem({ runId: "a" })]),
    );
    const alert = await screen.findByRole("alert");
    within(alert).getByRole("heading", { name: "The runs could not be loaded" });
    expect(alert).toHaveTextContent("the database is busy or unreachable right now");
    expect(screen.queryByLabelText("Loading runs")).not.toBeInTheDocument();
    await user.click(within(alert).getByRole("button", { name: "Try again" }));
    await screen.findByRole("table", { name: "Runs" });
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
