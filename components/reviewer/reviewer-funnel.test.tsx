import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { reviewerFunnel } from "@/lib/derived/reviewer/funnel";
import { reviewerCandidateRows, reviewerEvents } from "@/components/testing/fixtures";
import { ReviewerFunnelPanel } from "./reviewer-funnel";

// c1 granted → d1 completed; c2 granted against R13, cancelled by a dropped reminder; c3 denied, dispatched anyway (d3 running).
const funnel = reviewerFunnel(reviewerCandidateRows(reviewerEvents, { task: "t" }));

const stage = (label: RegExp) => within(screen.getByRole("listitem", { name: label }));
const partCount = (scope: ReturnType<typeof within>, label: string) => scope.getByText(label).closest("li")!.lastElementChild!.textContent;

describe("Reviewer funnel", () => {
  it("each code's count links to the audit filtered to that code; the chosen code's count is plain, with a way back", () => {
    render(<ReviewerFunnelPanel funnel={funnel} view={{ agent: "a", code: "ADMISSION_RULE_MISMATCH", violations: true }} dimmed={false} />);
    expect(screen.getByRole("link", { name: "1 DISPATCH_WITHOUT_ADMISSION — show only these" })).toHaveAttribute(
      "href",
      "/reviewer?agent=a&violations=1&code=DISPATCH_WITHOUT_ADMISSION",
    );
    expect(screen.queryByRole("link", { name: /ADMISSION_RULE_MISMATCH — show only these/ })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "every code →" })).toHaveAttribute("href", "/reviewer?agent=a&violations=1");
    screen.getByText(/only ADMISSION_RULE_MISMATCH, in the runs that have it/);
  });

  it("says why a stage counts more than the one before it", () => {
    const more = { ...funnel, dispatches: { ...funnel.dispatches, total: 4 } };
    render(<ReviewerFunnelPanel funnel={more} view={{}} dimmed={false} />);
    expect(within(screen.getByRole("listitem", { name: "Dispatched: 4" })).getByText(/^4 dispatched > 2 admitted/)).toHaveTextContent(
      "4 dispatched > 2 admitted: 2 dispatches more than admissions granted; 1 dispatch had no granted admission before it (DISPATCH_WITHOUT_ADMISSION, a violation of R12)",
    );
    expect(screen.getAllByText(/ > /)).toHaveLength(1);
  });

  it("counts candidates, admissions, dispatches and completions with what left each stage", () => {
    render(<ReviewerFunnelPanel funnel={funnel} view={{}} dimmed={false} />);
    const stages = screen.getAllByRole("listitem", { name: /^(Candidates|Admission granted|Dispatched|Completed): \d+$/ });
    expect(stages).toHaveLength(4);
    expect(stages[0]).toHaveAccessibleName("Candidates: 3");
    expect(stages[1]).toHaveAccessibleName("Admission granted: 2");
    expect(stages[2]).toHaveAccessibleName("Dispatched: 2");
    expect(stages[3]).toHaveAccessibleName("Completed: 1");
    const candidates = stage(/^Candidates/);
    expect(partCount(candidates, "recorded by the agent")).toBe("3");
    expect(partCount(candidates, "recorded but not due")).toBe("1");
    expect(partCount(stage(/^Admission granted/), "denied")).toBe("1");
    expect(partCount(stage(/^Admission granted/), "insufficient budget")).toBe("1");
    expect(partCount(stage(/^Completed/), "still running")).toBe("1");
  });

  it("violations link to the violations-only view; a code with none reads 0, not unknown", () => {
    render(<ReviewerFunnelPanel funnel={funnel} view={{ agent: "etf-agent" }} dimmed={false} />);
    const link = screen.getByRole("link", { name: "against the rule: 1 — show only violations" });
    expect(link.getAttribute("href")).toMatch(/^\/reviewer\?.*violations=/);
    expect(link.getAttribute("href")).toContain("agent=etf-agent");
    screen.getByRole("link", { name: "without admission: 1 — show only violations" });
    expect(screen.queryByRole("link", { name: /^while another ran/ })).not.toBeInTheDocument();
    const codes = within(screen.getByRole("region", { name: "Violations by code" })).getAllByRole("listitem");
    expect(
      codes.map((li) => [li.querySelector("[data-finding]")?.getAttribute("data-finding"), li.firstElementChild?.textContent]),
    ).toEqual([
      ["DISPATCH_WITHOUT_ADMISSION", "1"],
      ["CONCURRENT_DISPATCH", "0"],
      ["ADMISSION_RULE_MISMATCH", "1"],
      ["CANDIDATE_CANCELLED_BY_DROP", "1"],
    ]);
    screen.getByRole("link", { name: "show only violations →" });
  });

  it("in the violations-only view, each code's count filters to that code and the candidates count leads back to every candidate", () => {
    render(<ReviewerFunnelPanel funnel={funnel} view={{ violations: true }} dimmed={false} />);
    expect(screen.queryByRole("link", { name: "show only violations →" })).not.toBeInTheDocument();
    expect(screen.getByText(/ in all$/)).toHaveTextContent("3 in all");
    expect(
      within(screen.getByRole("region", { name: "Violations by code" }))
        .getAllByRole("link")
        .map((a) => a.getAttribute("href")),
    ).toEqual([
      "/reviewer?violations=1&code=DISPATCH_WITHOUT_ADMISSION",
      "/reviewer?violations=1&code=ADMISSION_RULE_MISMATCH",
      "/reviewer?violations=1&code=CANDIDATE_CANCELLED_BY_DROP",
    ]);
    expect(within(screen.getByRole("listitem", { name: "Candidates: 3" })).getByRole("link", { name: "3" })).toHaveAttribute(
      "href",
      "/reviewer",
    );
  });
});
