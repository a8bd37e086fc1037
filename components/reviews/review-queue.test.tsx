import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TReview, TReviewerListRow } from "@/lib/contracts";
import { apiError, fakeApi, renderWithClient } from "@/components/testing/api";
import { reviewerCandidateRows, reviewerEvents } from "@/components/testing/fixtures";
import { reviewerApiSearch, type ReviewerFilters } from "@/lib/queries/reviewer-url";
import { ReviewQueue } from "./review-queue";

/** The teaching scenes' candidates (c1 dispatched and completed, c2 and c3 flagged), none reviewed. */
const rows: TReviewerListRow[] = reviewerCandidateRows(reviewerEvents, { task: "compare ETF holdings" }).map((row) => ({
  ...row,
  reviewKey: `c:${row.candidateId}`,
  review: null,
}));
const filters: ReviewerFilters = { queue: true, reviewed: "no" };
const CANDIDATES = `GET /api/v1/reviewer/candidates${reviewerApiSearch(filters, { limit: 50 })}`;
const PROGRESS = `GET /api/v1/reviewer/progress${reviewerApiSearch({ queue: true })}`;

function review(row: TReviewerListRow, changes: Partial<TReview>): TReview {
  return {
    runId: row.runId,
    reviewKey: row.reviewKey,
    turn: row.turn,
    verdict: null,
    comment: null,
    reviewer: null,
    reviewedAt: null,
    ruleFindings: row.findings,
    dispatched: row.dispatches.length > 0,
    assignee: null,
    assignedAt: null,
    version: 1,
    updatedAt: "2026-12-01T10:00:00.000Z",
    ...changes,
  };
}

function renderQueue(routes: Parameters<typeof fakeApi>[0]) {
  const sent = fakeApi({
    [PROGRESS]: () => ({ total: 3, reviewed: 0, verdicts: { justified: 0, unnecessary: 0, should_dispatch: 0 }, assignedToYou: 0 }),
    "GET /api/v1/members": () => ({ members: [], invitations: [] }),
    ...routes,
  });
  renderWithClient(<ReviewQueue project="demo" view={{ audit: {} }} filters={filters} me={null} canWrite />);
  return sent;
}

const press = (key: string) => act(() => void fireEvent.keyDown(document.body, { key }));

afterEach(() => vi.unstubAllGlobals());

describe("review queue", () => {
  it("saves a verdict key with the comment box's text and goes on to the next open candidate", async () => {
    const sent = renderQueue({
      [CANDIDATES]: () => ({ rows, nextCursor: null }),
      [`PATCH /api/v1/runs/rev/reviews/${encodeURIComponent("c:c1")}`]: (request) =>
        review(rows[0], { verdict: "unnecessary", comment: (request.body as { comment: string }).comment, version: 1 }),
    });
    expect(await screen.findByRole("heading", { name: /^Candidate 1 of 3:/ })).toBeVisible();
    fireEvent.change(screen.getByLabelText(/^Comment/), { target: { value: "not worth it" } });
    press("2");
    await screen.findByRole("heading", { name: /^Candidate 2 of 3:/ });
    expect(sent.find((r) => r.method === "PATCH")?.body).toEqual({ verdict: "unnecessary", comment: "not worth it", version: 0 });
    expect(screen.getByRole("status")).toHaveTextContent("Saved: Unnecessary. Next: candidate 2 of 3.");
    expect(screen.getAllByRole("listitem")[0]).toHaveTextContent("Unnecessary");
  });

  it("after a conflict (409) shows the other person's review on the same candidate, and sends their version next", async () => {
    const theirs = review(rows[0], { verdict: "justified", reviewer: { personId: "p-bo", name: "Bo" }, version: 1 });
    const sent = renderQueue({
      [CANDIDATES]: () => ({ rows, nextCursor: null }),
      // After the conflict, the candidate's review is read again, on its own: c1 now has Bo's verdict.
      [`GET /api/v1/runs/rev/reviews/${encodeURIComponent("c:c1")}`]: () => theirs,
      [`PATCH /api/v1/runs/rev/reviews/${encodeURIComponent("c:c1")}`]: (request) =>
        (request.body as { version: number }).version === 0
          ? apiError(409, "conflict", "the review changed since you read it (version 0, now 1): read it again and decide")
          : review(rows[0], { verdict: "unnecessary", version: 2 }),
    });
    await screen.findByRole("heading", { name: /^Candidate 1 of 3:/ });
    press("2");
    expect(await screen.findByRole("alert")).toHaveTextContent("Someone changed this review while you were on it");
    await waitFor(() => expect(screen.getByText("Justified", { selector: "strong" })).toBeVisible());
    expect(screen.getByRole("heading", { name: /^Candidate 1 of 3:/ })).toBeVisible();
    expect(screen.getByText(/— Bo/)).toBeVisible();
    expect(screen.getByRole("radio", { name: /Justified/ })).toBeChecked();

    press("2");
    await screen.findByRole("heading", { name: /^Candidate 2 of 3:/ });
    expect(sent.filter((r) => r.method === "PATCH").map((r) => (r.body as { version: number }).version)).toEqual([0, 1]);
    // The open list was not read again (it would no longer hold the candidate shown), nor any other list: one review was.
    expect(sent.filter((r) => r.method === "GET" && r.path.startsWith("/api/v1/reviewer/candidates")).map((r) => r.path)).toEqual([
      CANDIDATES.slice("GET ".length),
    ]);
    expect(sent.filter((r) => r.method === "GET" && r.path.startsWith("/api/v1/runs/")).map((r) => r.path)).toEqual([
      `/api/v1/runs/rev/reviews/${encodeURIComponent("c:c1")}`,
    ]);
  });
});
