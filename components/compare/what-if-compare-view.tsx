"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { TReplayWhatIfRun } from "@/lib/contracts";
import type { Alignment } from "@/lib/compare-view/overlay";
import { copyVersionsQuery, policyVersionsQuery } from "@/lib/queries/copy";
import { replayTurnPath } from "@/lib/queries/paths";
import { replayWhatIfRunQuery } from "@/lib/queries/replay";
import { replayVersionParts, whatIfLabel } from "@/lib/replay/replay-versions";
import { ComparisonView, RunCounts } from "./comparison-view";
import styles from "./compare.module.css";

/**
 * A recorded run (A) against its own what-if under a replay job (B) in the comparison view
 * (docs/compare.md, "A run against its what-if replay"): B's meters, lines and reminders are the
 * what-if's, drawn from its timeline as the server rebuilt it with the job's versions, and the
 * differences are stepped as between two runs. No Swap: the what-if is always B.
 */
export function WhatIfCompareView({
  runId,
  jobId,
  initialTurn,
  initialAlignment,
}: {
  runId: string;
  jobId: string;
  initialTurn: number | null;
  initialAlignment: Alignment;
}) {
  const whatIf = useQuery(replayWhatIfRunQuery(jobId, runId));
  const copyVersions = useQuery(copyVersionsQuery());
  const policyVersions = useQuery(policyVersionsQuery());
  const names = new Map([...(copyVersions.data?.versions ?? []), ...(policyVersions.data?.versions ?? [])].map((v) => [v.id, v.name]));
  const versions = whatIf.data ? replayVersionParts(whatIf.data, (id) => names.get(id)) : [];
  const label = whatIfLabel(runId, jobId, versions);
  const replayHref = `/copy/replay?job=${encodeURIComponent(jobId)}`;

  return (
    <ComparisonView
      sides={{ a: runId, replay: jobId }}
      title="Compare a run with its what-if"
      lead={
        <>
          Run A (solid) is the run as recorded; B (dashed) is its what-if: the same events rebuilt with the{" "}
          <Link href={replayHref}>replay&apos;s</Link> {versions.length ? versions.join(" and ") : "versions"}, with that policy&apos;s
          stage and limit lines. A decision, as compared, is each reminder&apos;s key, stage and fate and the Reviewer admission, not its
          wording.
        </>
      }
      swap={false}
      b={{
        card: (
          <WhatIfCard
            label={label}
            runId={runId}
            replayHref={replayHref}
            whatIf={whatIf.data}
            error={whatIf.isError ? whatIf.error.message : null}
          />
        ),
        timeline: whatIf.data?.timeline,
        findingsByCode: whatIf.data?.findingsByCode,
        findingsNote:
          "The what-if's findings leave out those that compare with the agent's record (e.g. MISSING_REMINDER): no agent ran with its copy and policy.",
        turnLink: (turn) => ({ href: replayTurnPath(jobId, runId, turn), label: "open in the replay (baseline vs what-if)" }),
      }}
      initialTurn={initialTurn}
      initialAlignment={initialAlignment}
    />
  );
}

function WhatIfCard({
  label,
  runId,
  replayHref,
  whatIf,
  error,
}: {
  label: string;
  runId: string;
  replayHref: string;
  whatIf: TReplayWhatIfRun | undefined;
  error: string | null;
}) {
  return (
    <section className={styles.card} aria-label="Run B" data-run="B">
      <p className={styles.cardTag}>
        <span className={styles.swatch} data-run="B" aria-hidden="true" /> Run B · what-if
      </p>
      <h2 className={styles.cardTitle} data-testid="what-if-label">
        <Link href={replayHref}>{label}</Link>
      </h2>
      <p className={styles.muted}>the events of {runId}, rebuilt by the replay (no model was called)</p>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : whatIf ? (
        <RunCounts turns={whatIf.rebuiltTurns} reminders={whatIf.reminders} findings={whatIf.findings} />
      ) : (
        <p className={styles.muted}>Rebuilding the what-if…</p>
      )}
    </section>
  );
}
