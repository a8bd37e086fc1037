"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import type { TReplayJob } from "@/lib/contracts";
import { formatNumber } from "@/lib/format";
import { useFormatInstant } from "@/components/layout/time-zone";
import { copyVersionsQuery, policyVersionsQuery } from "@/lib/queries/copy";
import { cancelReplay, replayJobQuery, replayKeys, startReplay } from "@/lib/queries/replay";
import { Panel } from "@/components/ui/panel";
import { TuningPage } from "@/components/ui/tuning-page";
import { ChangedTurns } from "./changed-turns";
import { FollowUpPanel } from "./follow-up-panel";
import { KeyStatsChart } from "./key-stats-chart";
import { KeyStatsTable } from "./key-stats-table";
import { replayRequest, type ReplayChoice } from "@/lib/queries/replay-choice";
import { ReplayForm } from "./replay-form";
import { ReplayProgress } from "./replay-progress";
import { RecentReplays } from "./recent-replays";
import styles from "./replay.module.css";

type Props = { project: string; initial: ReplayChoice; initialJobId: string | null };

/**
 * What-if replay: rebuild the chosen runs with a copy and/or policy version, compare with their
 * recorded decisions, and open any changed turn side by side. The job lives on the server; its id
 * in the URL brings a finished result back at once.
 */
export function ReplayWorkbench({ project, initial, initialJobId }: Props) {
  const queryClient = useQueryClient();
  const copyVersions = useQuery(copyVersionsQuery());
  const policyVersions = useQuery(policyVersionsQuery());
  const [jobId, setJobId] = useState(initialJobId);
  const job = useQuery({ ...replayJobQuery(jobId ?? ""), enabled: jobId !== null });

  useEffect(() => {
    // A shown replay is the URL's whole state: its own versions and filters preselect the form on reload.
    if (!jobId) return;
    const url = new URL(window.location.href);
    url.search = "";
    url.searchParams.set("job", jobId);
    if (url.href !== window.location.href) window.history.replaceState(null, "", url);
  }, [jobId]);

  const start = useMutation({
    mutationFn: (choice: ReplayChoice) => startReplay(replayRequest(choice, Date.now())),
    onSuccess: (started) => {
      queryClient.setQueryData(replayKeys.job(started.id), started);
      setJobId(started.id);
      void queryClient.invalidateQueries({ queryKey: replayKeys.list() });
    },
  });
  const cancel = useMutation({
    mutationFn: (id: string) => cancelReplay(id),
    onSuccess: (cancelled) => queryClient.setQueryData(replayKeys.job(cancelled.id), cancelled),
  });

  // A replay that ends changes the recent replays' list.
  const status = job.data?.status;
  useEffect(() => {
    if (status && status !== "running") void queryClient.invalidateQueries({ queryKey: replayKeys.list() });
  }, [status, queryClient]);

  const names = new Map([...(copyVersions.data?.versions ?? []), ...(policyVersions.data?.versions ?? [])].map((v) => [v.id, v.name]));
  const current = job.data;

  return (
    <TuningPage
      project={project}
      title="What-if replay"
      current="/copy/replay"
      lead="Rebuilds recorded runs with another copy or policy — exactly, without calling any model — and compares them with what was recorded."
    >
      <Panel id="replay-settings" title="Replay">
        <ReplayForm
          initial={initial}
          copyVersions={copyVersions.data?.versions ?? []}
          policyVersions={policyVersions.data?.versions ?? []}
          busy={start.isPending || current?.status === "running"}
          error={start.isError ? start.error.message : null}
          onStart={(choice) => start.mutate(choice)}
        />
        {copyVersions.isSuccess && copyVersions.data.versions.length === 0 ? (
          <p className="muted">
            No copy versions yet: <Link href="/copy">write one in the copy editor</Link>.
          </p>
        ) : null}
      </Panel>

      {jobId === null ? null : job.isError ? (
        <p className="form-error" role="alert">
          {job.error.message}
        </p>
      ) : !current ? (
        <p className="muted">Loading replay…</p>
      ) : (
        <JobView key={current.id} job={current} names={names} cancelling={cancel.isPending} onCancel={() => cancel.mutate(current.id)} />
      )}

      <RecentReplays names={names} currentId={jobId} />
    </TuningPage>
  );
}

function JobView({
  job,
  names,
  cancelling,
  onCancel,
}: {
  job: TReplayJob;
  names: Map<string, string>;
  cancelling: boolean;
  onCancel: () => void;
}) {
  const formatInstant = useFormatInstant();
  const what = [
    job.copyVersionId ? `copy “${names.get(job.copyVersionId) ?? job.copyVersionId}”` : null,
    job.policyVersionId ? `policy “${names.get(job.policyVersionId) ?? job.policyVersionId}”` : null,
  ]
    .filter(Boolean)
    .join(" and ");
  const result = job.result;
  const changedTurns = result?.changedRuns.reduce((sum, r) => sum + r.changedTurns, 0) ?? 0;
  const fateTurns = result?.changedRuns.reduce((sum, r) => sum + r.fateChangedTurns, 0) ?? 0;

  return (
    <>
      <Panel
        id="replay-job"
        title={`Replay with ${what}`}
        meta={job.finishedAt ? `finished ${formatInstant(job.finishedAt)}` : `started ${formatInstant(job.createdAt)}`}
      >
        {job.status === "running" ? (
          <ReplayProgress job={job} onCancel={onCancel} cancelling={cancelling} />
        ) : job.status === "cancelled" ? (
          <p role="status">
            Cancelled after {formatNumber(job.progress.doneRuns)} of {formatNumber(job.progress.totalRuns)} runs; nothing was kept. Start it
            again to see the result.
          </p>
        ) : job.status === "failed" || !result ? (
          <p className="form-error" role="alert">
            The replay failed: {job.error ?? "no result"}
          </p>
        ) : (
          <p className={styles.summary} role="status">
            <strong>{formatNumber(result.runs)}</strong> runs · <strong>{formatNumber(result.turns)}</strong> turns rebuilt ·{" "}
            <strong data-testid="changed-turns">{formatNumber(changedTurns)}</strong> turns changed in{" "}
            {formatNumber(result.changedRuns.length)} runs, of which <strong data-testid="fate-turns">{formatNumber(fateTurns)}</strong>{" "}
            with a reminder delivered, dropped or staged differently
            {job.reused ? <span className="muted"> · the same inputs were replayed before: this is that result, kept</span> : null}
          </p>
        )}
      </Panel>

      {job.status === "done" && result ? (
        <>
          <Panel id="replay-keys" title="Per key" meta="baseline → what-if">
            <div className={styles.charts}>
              <KeyStatsChart keys={result.keys} measure="dropped" />
              <KeyStatsChart keys={result.keys} measure="delivered" />
            </div>
            <KeyStatsTable keys={result.keys} />
          </Panel>
          <Panel id="replay-changed" title="Changed turns" meta="open one to see baseline and what-if side by side">
            <ChangedTurns jobId={job.id} runs={result.changedRuns} />
          </Panel>
          <FollowUpPanel groups={result.followUp} />
        </>
      ) : null}
    </>
  );
}
