import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { reviewerCandidateRows, reviewerEvents } from "@/components/testing/fixtures";
import { ReviewerTable } from "./reviewer-table";

const noop = () => {};
const rows = reviewerCandidateRows(reviewerEvents, { task: "compare ETF holdings and fees" });
const HEADERS = ["Run", "Turn", "k", "Recorded", "Rule says", "Dispatch", "Completion", "Cancelled", "Suggestion", "Finding"];

/** The body row of a candidate, as { column header: cell text }. */
function rowOf(candidate: string): Record<string, string> {
  const tr = document.querySelector<HTMLElement>(`tr[data-candidate="${candidate}"]`)!;
  const cells = within(tr).getAllByRole("cell");
  return Object.fromEntries(HEADERS.map((h, i) => [h, cells[i].textContent ?? ""]));
}

describe("Reviewer table: verdicts and violations on rebuilt candidates", () => {
  it("lists one row per candidate with links to the run's turn", () => {
    render(<ReviewerTable rows={rows} view={{}} dimmed={false} navigate={noop} />);
    const table = screen.getByRole("table", { name: "Reviewer candidates" });
    expect(rows.map((r) => r.candidateId)).toEqual(["c1", "c2", "c3"]);
    expect(
      within(table)
        .getAllByRole("link", { name: /^Open rev at turn / })
        .map((a) => a.getAttribute("href")),
    ).toEqual(["/runs/rev?turn=10", "/runs/rev?turn=11", "/runs/rev?turn=20"]);
    expect(within(table).getAllByRole("link", { name: "Only run rev" })[0]).toHaveAttribute("href", expect.stringContaining("run=rev"));
  });

  it("an admission R13 agrees with: granted on both sides with the budget fact, its dispatch completed, no violation", () => {
    render(<ReviewerTable rows={rows} view={{}} dimmed={false} navigate={noop} />);
    const c1 = rowOf("c1");
    expect(c1.Recorded).toBe("✓ granted");
    expect(c1["Rule says"]).toBe("✓ grantrequests left 8 ≥ 8no review in progress");
    expect(c1.Dispatch).toBe("d1");
    expect(c1.Completion).toBe("■ doneturn 12");
    // The dropped review suggestion sits in its own group: it neither cancels nor admits (R12).
    expect(c1.Suggestion).toBe("✕droppedstage 1");
    expect(c1.Finding).toBe("—");
    expect(
      within(document.querySelector<HTMLElement>('tr[data-candidate="c1"]')!).queryByLabelText("differs from the recorded admission"),
    ).toBeNull();
  });

  it("an admission against R13 is marked ≠ with the rule's reasons, and a cancellation by a drop is flagged", () => {
    render(<ReviewerTable rows={rows} view={{}} dimmed={false} navigate={noop} />);
    const c2 = rowOf("c2");
    expect(c2.Turn).toBe("11not due");
    expect(c2.Recorded).toBe("✓ granted");
    expect(c2["Rule says"]).toBe("≠✗ denyrequests left 7 < 8review in progress");
    expect(c2.Cancelled).toBe("⚠ reminder dropped");
    expect(c2.Finding).toMatch(/^⚠ADMISSION_RULE_MISMATCH⚠CANDIDATE_CANCELLED_BY_DROPWhy/);
    const tr = document.querySelector<HTMLElement>('tr[data-candidate="c2"]')!;
    within(tr).getByLabelText("differs from the recorded admission");
  });

  it("a denied admission that agrees with R13 is not ≠, but the dispatch after it is a violation", () => {
    render(<ReviewerTable rows={rows} view={{}} dimmed={false} navigate={noop} />);
    const c3 = rowOf("c3");
    expect(c3.Recorded).toBe("✗ deniedinsufficient budget");
    expect(c3["Rule says"]).toBe("✗ denyrequests left 3 < 8");
    expect(c3.Completion).toBe("▶ running");
    expect(c3.Finding).toMatch(/^⚠DISPATCH_WITHOUT_ADMISSIONWhy/);
  });

  it("Why opens each violation's rule and the evidence in the row, and Hide closes it", async () => {
    const user = userEvent.setup();
    render(<ReviewerTable rows={rows} view={{}} dimmed={false} navigate={noop} />);
    const tr = document.querySelector<HTMLElement>('tr[data-candidate="c2"]')!;
    const why = within(tr).getByRole("button", { name: /Why/ });
    expect(why).toHaveAttribute("aria-expanded", "false");
    await user.click(why);
    expect(why).toHaveAttribute("aria-expanded", "true");
    const detail = document.getElementById(why.getAttribute("aria-controls")!)!;
    const items = within(detail).getAllByRole("listitem");
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent("Recorded granted; R13 on turn 11's facts says denied (requests left 7 < 8, review in progress).");
    expect(items[1]).toHaveTextContent("Cancelled at turn 11 with reason “reminder dropped”; the turn's review suggestion was delivered.");
    // Only the opened row has a detail row.
    expect(screen.getAllByRole("button", { name: /Why|Hide/ }).filter((b) => b.getAttribute("aria-expanded") === "true")).toHaveLength(1);
    await user.click(within(tr).getByRole("button", { name: /Hide/ }));
    expect(detail).not.toBeInTheDocument();
  });

  it("within a run filter, the run id is plain text instead of a filter link", () => {
    render(<ReviewerTable rows={rows} view={{ run: "rev" }} dimmed={false} navigate={noop} />);
    expect(screen.queryByRole("link", { name: "Only run rev" })).not.toBeInTheDocument();
  });

  it("sorts by run (newest ↔ oldest) and by violations from the headers, saying the order with aria-sort", async () => {
    const user = userEvent.setup();
    const navigate = vi.fn();
    const header = (name: string) => screen.getByRole("columnheader", { name: new RegExp(`^${name}`) });
    const { rerender } = render(<ReviewerTable rows={rows} view={{ agent: "a1" }} dimmed={false} navigate={navigate} />);
    expect(header("Run")).toHaveAttribute("aria-sort", "descending");
    expect(header("Finding")).toHaveAttribute("aria-sort", "none");
    const runLink = within(header("Run")).getByRole("link");
    // A real link (a new tab keeps the filters and the order) …
    expect(runLink).toHaveAttribute("href", "/reviewer?agent=a1&sort=oldest");
    // … and a plain click moves in place.
    await user.click(runLink);
    expect(navigate).toHaveBeenLastCalledWith({ sort: "oldest" });
    await user.click(within(header("Finding")).getByRole("link"));
    expect(navigate).toHaveBeenLastCalledWith({ sort: "violations" });

    rerender(<ReviewerTable rows={rows} view={{ sort: "violations" }} dimmed={false} navigate={navigate} />);
    expect(header("Finding")).toHaveAttribute("aria-sort", "descending");
    expect(header("Run")).toHaveAttribute("aria-sort", "none");
    expect(within(header("Finding")).getByRole("link")).toHaveAttribute("href", "/reviewer");
    rerender(<ReviewerTable rows={rows} view={{ sort: "oldest" }} dimmed={false} navigate={navigate} />);
    expect(header("Run")).toHaveAttribute("aria-sort", "ascending");
    expect(within(header("Run")).getByRole("link")).toHaveAttribute("href", "/reviewer");
  });
});
