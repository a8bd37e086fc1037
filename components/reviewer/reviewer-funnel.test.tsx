import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { reviewerFunnel } from "@/lib/reviewer/funnel";
import { reviewerCandidateRows, reviewerEvents } from "@/components/testing/fixtures";
import { ReviewerFunnelPanel } from "./reviewer-funnel";

// c1 granted → d1 completed; c2 granted against R13, cancelled by a dropped reminder; c3 denied, dispatched anyway (d3 running).
const funnel = reviewerFunnel(reviewerCandidateRows(reviewerEvents, { task: "t" }));

const stage = (label: RegExp) => within(screen.getByRole("listitem", { name: label }));
const partCount = (scope: ReturnType<typeof within>, label: string) => scope.getByText(label).closest("li")!.lastElementChild!.textContent;

describe("Reviewer funnel", () => {
  it("counts candidates, admissions, dispatches and completions with what left each stage", () => {
    render(<ReviewerFunnelPanel funnel={funnel} view={{}} dimmed={false} />);
    expect(screen.getByRole("listitem", { name: "Candidates: 3" })).toBeInTheDocument();
    expect(screen.getByRole("listitem", { name: "Admission granted: 2" })).toBeInTheDocument();
    expect(screen.getByRole("listitem", { name: "Dispatched: 2" })).toBeInTheDocument();
    expect(screen.getByRole("listitem", { name: "Completed: 1" })).toBeInTheDocument();
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
    expect(screen.getByRole("link", { name: "without admission: 1 — show only violations" })).toBeInTheDocument();
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
    expect(screen.getByRole("link", { name: "show only violations →" })).toBeInTheDocument();
  });

  it("in the violations-only view, code counts are plain and the candidates count leads back to every candidate", () => {
    render(<ReviewerFunnelPanel funnel={funnel} view={{ violations: true }} dimmed={false} />);
    expect(screen.queryByRole("link", { name: "show only violations →" })).not.toBeInTheDocument();
    expect(screen.getByText("3 in all")).toBeInTheDocument();
    expect(within(screen.getByRole("region", { name: "Violations by code" })).queryAllByRole("link")).toEqual([]);
    expect(within(screen.getByRole("listitem", { name: "Candidates: 3" })).getByRole("link", { name: "3" })).toHaveAttribute(
      "href",
      "/reviewer",
    );
  });
});
