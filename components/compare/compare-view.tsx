"use client";

import { useQuery } from "@tanstack/react-query";
import type { Alignment } from "@/lib/compare-view/overlay";
import { runPath } from "@/lib/queries/paths";
import { runSummaryQuery, runTimelineQuery } from "@/lib/queries/runs";
import { ComparisonView, RunCard } from "./comparison-view";

/**
 * Two runs of the project side by side (docs/compare.md): each meter overlaid in its own unit with
 * both policies' stage lines, the reminders each run gave, their findings, and their decisions at a
 * turn; `]` `[` step through the turns where their decisions differ (from the server's digests).
 */
export function CompareView({
  a,
  b,
  initialTurn,
  initialAlignment,
}: {
  a: string;
  b: string;
  initialTurn: number | null;
  initialAlignment: Alignment;
}) {
  const summaryB = useQuery(runSummaryQuery(b));
  const timelineB = useQuery(runTimelineQuery(b));
  return (
    <ComparisonView
      sides={{ a, b }}
      title="Compare runs"
      lead={
        <>
          Run A (solid) and run B (dashed), each meter in its own unit with both policies&apos; stage lines. A decision, as compared, is
          each reminder&apos;s key, stage and fate and the Reviewer admission, not its wording.
        </>
      }
      swap
      b={{
        card: <RunCard which="B" summary={summaryB.data} runId={b} />,
        timeline: timelineB.data,
        findingsByCode: summaryB.data?.findingsByCode,
        turnLink: (turn) => ({ href: runPath(b, { turn }), label: "open in run B" }),
      }}
      initialTurn={initialTurn}
      initialAlignment={initialAlignment}
    />
  );
}
