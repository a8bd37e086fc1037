import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { TReplayResult } from "@/lib/contracts";
import { FollowUpPanel } from "./follow-up-panel";

const key = (k: TReplayResult["followUp"][number]["keys"][number]["key"], delivered: number, followed: number, rate: number | null) => ({
  key: k,
  delivered,
  followed,
  rate,
  low: rate === null ? null : Math.max(0, rate - 0.1),
  high: rate === null ? null : Math.min(1, rate + 0.1),
});

const groups: TReplayResult["followUp"] = [
  {
    copy: { fingerprint: "aaaaaaaaaa", label: "terse", copyVersionId: "cv-terse", runs: 3 },
    keys: [
      key("requests", 12, 3, 0.25),
      key("time", 0, 0, null),
      key("context", 4, 4, 1),
      key("edits", 2, 1, 0.5),
      key("review", 0, 0, null),
    ],
  },
  {
    copy: { fingerprint: "bbbbbbbbbb", label: "Run's own copy · bbbbbbbbbb", copyVersionId: null, runs: 1 },
    keys: [key("requests", 1, 0, 0)],
  },
];

/** A group's rows as [key, related action, delivered, followed, rate] texts. */
function rows(label: string): string[][] {
  return within(screen.getByRole("table", { name: `Follow-up with ${label}` }))
    .getAllByRole("row")
    .slice(1)
    .map((tr) => [...tr.children].map((c) => c.textContent ?? ""));
}

describe("replay: follow-up after delivery (contract §8)", () => {
  it("per copy the runs were rendered with: each key's related action, deliveries, follow-ups and rate with its interval", () => {
    render(<FollowUpPanel groups={groups} />);
    screen.getByRole("heading", { name: "terse · 3 runs" });
    screen.getByRole("heading", { name: "Run's own copy · bbbbbbbbbb · 1 run" });
    expect(rows("terse")).toEqual([
      ["requests", "finalize", "12", "3", "25% (15%–35%)"],
      ["time", "finalize", "0", "0", "none delivered"],
      ["context", "a smaller request next turn", "4", "4", "100% (90%–100%)"],
      ["edits", "no more edits of the exhausted block", "2", "1", "50% (40%–60%)"],
      ["review", "review objectives or check evidence", "0", "0", "none delivered"],
    ]);
    screen.getByText("Association, not effect.");
  });

  it("says so when no reminder was delivered in the runs", () => {
    render(<FollowUpPanel groups={[]} />);
    screen.getByText("No delivered reminders in these runs.");
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });
});
