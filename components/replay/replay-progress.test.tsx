import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ZReplayJob } from "@/lib/contracts";
import { ReplayProgress } from "./replay-progress";

const running = (progress: { totalRuns: number; doneRuns: number; totalTurns: number; doneTurns: number }) =>
  ZReplayJob.parse({
    id: "job-1",
    status: "running",
    copyVersionId: "cv-1",
    policyVersionId: null,
    filters: {},
    progress,
    result: null,
    error: null,
    reused: false,
    createdAt: "2026-11-30T12:00:00.000Z",
    finishedAt: null,
  });

describe("replay progress", () => {
  it("measures progress in turns, and in runs while the turns are not counted yet", () => {
    const { rerender } = render(
      <ReplayProgress
        job={running({ totalRuns: 4, doneRuns: 1, totalTurns: 3000, doneTurns: 2250 })}
        onCancel={() => {}}
        cancelling={false}
      />,
    );
    expect(screen.getByRole("progressbar", { name: "Replay progress" })).toHaveAttribute("aria-valuenow", "75");
    expect(screen.getByText(/ turns rebuilt/)).toHaveTextContent(/1 of 4 runs · 2,250 of 3,000 turns rebuilt/);
    rerender(
      <ReplayProgress job={running({ totalRuns: 4, doneRuns: 1, totalTurns: 0, doneTurns: 0 })} onCancel={() => {}} cancelling={false} />,
    );
    expect(screen.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "25");
    rerender(
      <ReplayProgress job={running({ totalRuns: 0, doneRuns: 0, totalTurns: 0, doneTurns: 0 })} onCancel={() => {}} cancelling={false} />,
    );
    expect(screen.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "0");
  });

  it("Cancel asks once; while cancelling it cannot be pressed again", async () => {
    const user = userEvent.setup();
    const onCancel = vi.fn();
    const job = running({ totalRuns: 4, doneRuns: 1, totalTurns: 10, doneTurns: 2 });
    const { rerender } = render(<ReplayProgress job={job} onCancel={onCancel} cancelling={false} />);
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    rerender(<ReplayProgress job={job} onCancel={onCancel} cancelling />);
    expect(screen.getByRole("button", { name: "Cancelling…" })).toBeDisabled();
  });
});
