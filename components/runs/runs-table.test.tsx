import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { RunListView } from "@/lib/queries/run-list-url";
import { runListItem } from "@/components/testing/fixtures";
import { RunsTable } from "./runs-table";

const NOW = Date.parse("2026-11-30T12:00:00.000Z");

const runs = [
  runListItem({ runId: "done", findings: 0 }),
  runListItem({
    runId: "live-one",
    status: "live",
    startedAt: "2026-11-30T11:55:00.000Z",
    endedAt: null,
    requests: { used: 38, usable: 36, reserve: 4, limit: 40 },
    time: { elapsedMs: 1_900_000, limitMs: 1_800_000 },
    reminders: { delivered: 7, dropped: 2, failed: 1, uncertain: 0, pending: 3 },
    findings: 4,
    findingsByCode: { STAGE_MISMATCH: 1, DISPATCH_WITHOUT_ADMISSION: 2, FREE_REQUEST: 1 },
    commentCount: 3,
  }),
  runListItem({
    runId: "waiting",
    task: null,
    agent: null,
    model: null,
    status: "live",
    startedAt: null,
    endedAt: null,
    turns: 0,
    requests: null,
    time: null,
    reminders: { delivered: 0, dropped: 0, failed: 0, uncertain: 0, pending: 0 },
    rebuildError: "waiting for the run's run.started event",
  }),
];

/** A run's row as { column header: cell text }. */
function row(runId: string): Record<string, string> {
  const table = screen.getByRole("table", { name: "Runs" });
  const headers = within(table)
    .getAllByRole("columnheader")
    .map((h) => h.textContent?.replace(/[↑↓]/g, "").trim() ?? "");
  const tr = within(table).getByText(runId, { exact: false, selector: "span" }).closest("tr")!;
  return Object.fromEntries([...tr.children].map((td, i) => [headers[i].split(" ")[0], td.textContent?.replace(/\s+/g, " ").trim() ?? ""]));
}

const header = (name: string) => screen.getByRole("columnheader", { name: new RegExp(`^${name}`) });

function renderTable(view: Partial<RunListView> = {}, dimmed = false) {
  render(<RunsTable runs={runs} view={{ sort: "-started", ...view }} now={NOW} dimmed={dimmed} />);
}

describe("runs table", () => {
  it("one row per run, each meter in its own unit, with the worst finding severity and when it started", () => {
    renderTable();
    expect(row("done")).toEqual({
      Task: "Compare fees of VOO, IVV and SPLG (done)done",
      Agent: "etf-agent",
      Model: "m-large",
      Status: "✓completed",
      Turns: "12",
      Requests: "30/36 (+4 reserve)",
      Time: "20/30 min",
      Reminders: "5● delivered1✕ dropped (opens the run at its first dropped reminder)",
      Dropped: "1",
      Drop: "16.6%",
      Findings: "0",
      Violations: "0",
      Started: "2 h ago",
    });
    expect(row("live-one")).toMatchObject({
      Status: "◉live",
      Requests: "38/36 (+4 reserve)",
      Reminders: "7● delivered2✕ dropped (opens the run at its first dropped reminder)1▲ failed3○ pending",
      Findings: "4violation (opens the run at its first finding)",
      Started: "5 min ago",
    });
    // A dropped count and a findings count open the run at its first such turn; `]` lands on the first.
    const links = within(screen.getByRole("table", { name: "Runs" })).getAllByRole("link", { name: / \(opens the run at its first / });
    expect(links.map((a) => a.getAttribute("href"))).toEqual([
      "/runs/done?first=drop",
      "/runs/live-one?first=drop",
      "/runs/live-one?first=finding",
    ]);
    const flagged = document.querySelectorAll("tr[data-jump]");
    expect([...flagged].map((tr) => tr.getAttribute("data-jump-label"))).toEqual([
      "done: 1 dropped reminder",
      "live-one: 2 dropped reminders, 4 findings",
    ]);
    // The run's comments are counted before its id.
    expect(row("live-one").Task).toBe("Compare fees of VOO, IVV and SPLG (live-one)✎ 3 comments · live-one");
    expect(screen.getByTitle(/^Notes: /)).toHaveAttribute("title", "Notes: 3 comments");
    expect(row("done").Task).not.toContain("✎");
    expect(screen.getByRole("link", { name: "Compare fees of VOO, IVV and SPLG (done)" })).toHaveAttribute("href", "/runs/done");
  });

  it("says what is over its limit and which findings there are in the tooltips", () => {
    renderTable();
    const live = screen.getByText("live-one", { selector: "span" }).closest("tr")!;
    expect(within(live).getByTitle(/requests used of/)).toHaveAttribute(
      "title",
      "38 requests used of 36 usable; 4 held back for delivery (limit 40) — into the reserve",
    );
    expect(
      within(live)
        .getByTitle(/^4 findings/)
        .getAttribute("title")
        ?.split("\n"),
    ).toEqual([
      "4 findings (2 violation, 1 mismatch, 1 notice); worst: violation",
      "DISPATCH_WITHOUT_ADMISSION (violation) ×2",
      "STAGE_MISMATCH (mismatch) ×1",
      "FREE_REQUEST (notice) ×1",
    ]);
  });

  it("a run whose run.started has not arrived: no task, no meters, no start, and why its decisions are missing", () => {
    renderTable();
    expect(row("waiting")).toMatchObject({
      Task: "(waiting for run.started)waiting · not rebuilt",
      Agent: "—",
      Requests: "—no requests meter or reading",
      Time: "—no time limit or reading",
      Started: "—run.started has not arrived",
      Dropped: "0",
      Drop: "16.6%",
    });
    screen.getByTitle("Decisions not rebuilt: waiting for the run's run.started event");
  });

  it("the Turns and Started headers sort by their column, descending first, and mark the current order", () => {
    const { unmount } = render(<RunsTable runs={runs} view={{ sort: "-started", status: "live" }} now={NOW} />);
    expect(header("Started")).toHaveAttribute("aria-sort", "descending");
    expect(header("Turns")).toHaveAttribute("aria-sort", "none");
    expect(within(header("Started")).getByRole("link")).toHaveAttribute("href", "/runs?status=live&sort=started");
    expect(within(header("Turns")).getByRole("link")).toHaveAttribute("href", "/runs?status=live&sort=-turns");
    unmount();
    renderTable({ sort: "-turns", cursor: "abc" });
    expect(header("Turns")).toHaveAttribute("aria-sort", "descending");
    expect(header("Started")).toHaveAttribute("aria-sort", "none");
    // Sorting again starts at the first page: the cursor is left out.
    expect(within(header("Turns")).getByRole("link")).toHaveAttribute("href", "/runs?sort=turns");
    expect(within(header("Started")).getByRole("link")).toHaveAttribute("href", "/runs");
  });

  it("an ascending sort links back to descending", () => {
    renderTable({ sort: "turns" });
    expect(header("Turns")).toHaveAttribute("aria-sort", "ascending");
    expect(within(header("Turns")).getByRole("link")).toHaveAttribute("href", "/runs?sort=-turns");
  });

  it("is marked busy while the next page of the list is on its way", () => {
    renderTable({}, true);
    expect(screen.getByRole("table", { name: "Runs" })).toHaveAttribute("aria-busy", "true");
  });

  it("scrolls sideways in a named region of its own, and shows a long model name whole in its title", () => {
    const model = "vendor/an-unusually-long-model-name-with-a-dated-suffix-2026-11-30-preview";
    render(<RunsTable runs={[runListItem({ runId: "long-model", model })]} view={{ sort: "-started" }} now={NOW} />);
    const region = screen.getByRole("region", { name: "Runs" });
    expect(region).toHaveAttribute("tabindex", "0");
    within(region).getByRole("table", { name: "Runs" });
    expect(within(region).getByText(model)).toHaveAttribute("title", model);
    expect(within(region).getByText("long-model")).toHaveAttribute("title", "long-model");
  });
});

describe("runs table columns", () => {
  it("the Findings, Dropped and Drop rate headers sort by their column both ways, with their units", () => {
    render(<RunsTable runs={runs} view={{ sort: "-dropRate", hasDrops: "1" }} now={NOW} />);
    expect(header("Drop rate")).toHaveAttribute("aria-sort", "descending");
    expect(header("Drop rate")).toHaveTextContent("% of reminders");
    expect(within(header("Drop rate")).getByRole("link")).toHaveAttribute("href", "/runs?hasDrops=1&sort=dropRate");
    expect(header("Dropped")).toHaveAttribute("aria-sort", "none");
    expect(header("Dropped")).toHaveTextContent("reminders");
    expect(within(header("Dropped")).getByRole("link")).toHaveAttribute("href", "/runs?hasDrops=1&sort=-dropped");
    expect(within(header("Findings")).getByRole("link")).toHaveAttribute("href", "/runs?hasDrops=1&sort=-findings");
  });

  it("shows only the chosen columns, and always the task", () => {
    render(<RunsTable runs={runs} view={{ sort: "-started" }} now={NOW} columns={["turns", "findings"]} />);
    const headers = screen.getAllByRole("columnheader").map((h) => h.textContent?.replace(/[↑↓]/g, "").trim());
    expect(headers).toEqual(["Task", "Turns", "Findings worst severity"]);
  });
});
