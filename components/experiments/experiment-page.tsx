"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { TArmResult, TExperiment, TExperimentCreate, TExperimentResults, TMeasure } from "@/lib/contracts";
import { armsCsv, estimateText, measureDifferenceText } from "@/lib/experiments/results-text";
import { experimentsApi } from "@/lib/endpoints/experiments";
import { formatInstant } from "@/lib/format";
import { copyVersionsQuery, policyVersionsQuery } from "@/lib/queries/copy";
import {
  experimentKeys,
  experimentQuery,
  experimentResultsQuery,
  promoteArm,
  startExperiment,
  stopExperiment,
  updateExperiment,
} from "@/lib/queries/experiments";
import { DEFAULT_SORT, runListHref } from "@/lib/queries/run-list-url";
import { DownloadButton } from "@/components/ui/download-button";
import { Panel } from "@/components/ui/panel";
import { useHydrated } from "@/components/ui/use-hydrated";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { ExperimentForm } from "./experiment-form";
import styles from "./experiments.module.css";

/**
 * /experiments/:id: the design (arms, weights, planned runs, what each renders with), start and stop,
 * and the results per arm with their intervals and differences from the control; the verdict only
 * once every arm has its planned runs (fixed horizon, contract §10).
 */
export function ExperimentPage({ id }: { id: string }) {
  const experiment = useQuery(experimentQuery(id));
  const results = useQuery(experimentResultsQuery(id));
  if (experiment.isError) {
    return (
      <p role="alert" className={styles.error}>
        The experiment could not be loaded: {experiment.error.message}
      </p>
    );
  }
  if (!experiment.data) return <p aria-busy="true">Loading the experiment…</p>;
  const e = experiment.data;
  return (
    <div className={styles.page}>
      <header className={styles.head}>
        <p className="muted">
          <Link href="/experiments">Experiments</Link> /
        </p>
        <h1>{e.name}</h1>
        <p>
          About the <strong>{e.key}</strong> reminder · <span className={styles.status}>{e.status}</span> · created by {e.createdBy}{" "}
          {formatInstant(e.createdAt)}
          {e.startedAt ? ` · started ${formatInstant(e.startedAt)}` : ""}
          {e.stoppedAt ? ` · stopped ${formatInstant(e.stoppedAt)}` : ""}
        </p>
        {e.note ? <p className="muted">{e.note}</p> : null}
        <StatusActions experiment={e} />
      </header>
      <DesignPanel experiment={e} />
      {e.status === "draft" ? <EditDraft key={e.version} experiment={e} /> : null}
      {results.isError ? (
        <p role="alert" className={styles.error}>
          The results could not be loaded: {results.error.message}
        </p>
      ) : !results.data ? (
        <p aria-busy="true">Loading the results…</p>
      ) : (
        <ResultsPanel experiment={e} results={results.data} />
      )}
    </div>
  );
}

function StatusActions({ experiment }: { experiment: TExperiment }) {
  const hydrated = useHydrated() ? "true" : undefined;
  const client = useQueryClient();
  const change = useMutation({
    mutationFn: (action: "start" | "stop") =>
      action === "start" ? startExperiment(experiment.id, experiment.version) : stopExperiment(experiment.id, experiment.version),
    onSettled: () => client.invalidateQueries({ queryKey: experimentKeys.all }),
  });
  return (
    <div className={styles.actions}>
      {experiment.status === "draft" ? (
        <button
          type="button"
          className="button"
          disabled={change.isPending}
          onClick={() => change.mutate("start")}
          data-hydrated={hydrated}
        >
          Start: assign runs
        </button>
      ) : null}
      {experiment.status === "running" ? (
        <button
          type="button"
          className="button button-quiet"
          disabled={change.isPending}
          onClick={() => change.mutate("stop")}
          data-hydrated={hydrated}
        >
          Stop assigning runs
        </button>
      ) : null}
      {change.isError ? (
        <p role="alert" className={styles.error}>
          {change.error.message}
        </p>
      ) : null}
      <p className="muted">
        {experiment.status === "draft"
          ? "Arms can still change. Once started they never do (a new design is a new experiment)."
          : experiment.status === "running"
            ? `Agents get their arm from GET ${experimentsApi.assignment.path.replace("{id}", experiment.id)}?runId=… or the SDK's startRun({ experiment }).`
            : "Stopped: no new assignments; runs keep their arm."}
      </p>
    </div>
  );
}

function DesignPanel({ experiment }: { experiment: TExperiment }) {
  const copies = useQuery(copyVersionsQuery());
  const policies = useQuery(policyVersionsQuery());
  const names = new Map([...(copies.data?.versions ?? []), ...(policies.data?.versions ?? [])].map((v) => [v.id, v.name]));
  const named = (id: string | null) => (id === null ? null : `“${names.get(id) ?? id}”`);
  return (
    <Panel id="experiment-design" title="Arms" meta="the first arm is the control">
      <ScrollRegion label="The experiment's arms">
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">arm</th>
              <th scope="col">weight</th>
              <th scope="col">planned runs</th>
              <th scope="col">renders with</th>
              <th scope="col">runs</th>
            </tr>
          </thead>
          <tbody>
            {experiment.arms.map((arm) => (
              <tr key={arm.name}>
                <th scope="row">{arm.name}</th>
                <td>{arm.weight}</td>
                <td>{arm.plannedRuns}</td>
                <td>{rendersWith(named(arm.copyVersionId), named(arm.policyVersionId), arm.policy, experiment.key)}</td>
                <td>
                  <Link href={runListHref({ sort: DEFAULT_SORT }, { experiment: experiment.id, arm: arm.name })}>Runs of {arm.name}</Link>
                  {arm.copyVersionId || arm.policyVersionId ? (
                    <>
                      {" · "}
                      <Link href={replayHref(arm.copyVersionId, arm.policyVersionId)}>What-if replay with {arm.name}</Link>
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </Panel>
  );
}

/**
 * A draft's design, editable until it starts (PUT over the version read: a change saved meanwhile
 * elsewhere is refused with 409, never merged). Keyed by the version, so a saved change starts a
 * fresh form from what the server answered.
 */
function EditDraft({ experiment }: { experiment: TExperiment }) {
  const hydrated = useHydrated() ? "true" : undefined;
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const save = useMutation({
    mutationFn: (body: TExperimentCreate) => updateExperiment(experiment.id, { ...body, version: experiment.version }),
    onSuccess: (saved) => {
      client.setQueryData(experimentKeys.one(experiment.id), saved);
      void client.invalidateQueries({ queryKey: experimentKeys.all });
    },
  });
  return (
    <Panel id="experiment-edit" title="Edit the draft" meta={`version ${experiment.version}`}>
      {open ? (
        <ExperimentForm
          draft={experiment}
          label="Edit the draft"
          submitLabel="Save the changes"
          pending={save.isPending}
          error={save.error}
          onSubmit={(body) => save.mutate(body)}
        />
      ) : (
        <div className={styles.actions}>
          <button type="button" className="button button-quiet" onClick={() => setOpen(true)} data-hydrated={hydrated}>
            Edit name, key and arms
          </button>
          <p className="muted">A draft can change until it starts; its arms are frozen from then on.</p>
        </div>
      )}
    </Panel>
  );
}

function rendersWith(copy: string | null, policy: string | null, document: TExperiment["arms"][number]["policy"], key: string): string {
  const parts: string[] = [];
  if (copy) parts.push(`copy version ${copy}`);
  if (policy) {
    const section = document?.[key as keyof NonNullable<typeof document>] as { remind?: boolean } | undefined;
    parts.push(section?.remind === false ? `policy version ${policy} (holdout: no ${key} reminders)` : `policy version ${policy}`);
  }
  return parts.length ? parts.join(" and ") : "the agent's own copy and policy (control)";
}

function replayHref(copy: string | null, policy: string | null): string {
  const q = new URLSearchParams();
  if (copy) q.set("copy", copy);
  if (policy) q.set("policy", policy);
  return `/copy/replay?${q}`;
}

function ResultsPanel({ experiment, results }: { experiment: TExperiment; results: TExperimentResults }) {
  const hydrated = useHydrated() ? "true" : undefined;
  const [measure, setMeasure] = useState<"key" | "all">("key");
  const shown = (m: TMeasure) => measure === "all" || m.id.endsWith(`.${experiment.key}`) || !m.id.includes(".");
  const ids = results.arms[0]?.measures.filter(shown).map((m) => m.id) ?? [];
  return (
    <Panel id="experiment-results" title="Results per arm" meta="95% intervals; runs are the unit">
      <div className={styles.results}>
        <p className={results.horizon.reached ? styles.reached : styles.notYet} role="status">
          {results.horizon.reached ? "Planned size reached. " : "Not enough runs yet. "}
          {results.horizon.message}
        </p>
        {results.verdict ? (
          <ul className={styles.verdict} aria-label="Verdict">
            {results.verdict.arms.map((v) => (
              <li key={v.arm}>
                <strong>{v.arm}</strong>: {v.verdict} on follow-up after a due {experiment.key} reminder (difference{" "}
                {measureDifferenceText("ratio", v.difference, "followed / due reminders")} at the{" "}
                {(results.verdict!.level * 100).toFixed(1)}% level, Bonferroni)
              </li>
            ))}
          </ul>
        ) : null}
        {results.unknownArmRuns > 0 ? (
          <p className="muted">{results.unknownArmRuns} runs named an arm this experiment does not have; they are left out.</p>
        ) : null}
        <fieldset className={styles.choice}>
          <legend>Measures</legend>
          <label>
            <input type="radio" name="measures" checked={measure === "key"} onChange={() => setMeasure("key")} data-hydrated={hydrated} />{" "}
            the {experiment.key} reminder and outcomes
          </label>
          <label>
            <input type="radio" name="measures" checked={measure === "all"} onChange={() => setMeasure("all")} data-hydrated={hydrated} />{" "}
            every key
          </label>
        </fieldset>
        <ScrollRegion label="Measures per arm">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">measure (unit)</th>
                {results.arms.map((arm) => (
                  <th scope="col" key={arm.name}>
                    {arm.name}
                    <span className={styles.armRuns}>
                      {arm.runs} of {arm.plannedRuns} runs
                      {arm.liveRuns ? `, ${arm.liveRuns} live` : ""}
                      {arm.mismatchedRuns ? `, ${arm.mismatchedRuns} mismatched` : ""}
                    </span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {ids.map((id) => {
                const first = results.arms[0].measures.find((m) => m.id === id)!;
                return (
                  <tr key={id}>
                    <th scope="row">
                      {first.label} <span className="muted">({first.unit})</span>
                    </th>
                    {results.arms.map((arm) => (
                      <MeasureCell key={arm.name} arm={arm} id={id} interim={!results.horizon.reached} />
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollRegion>
        <p className="muted">
          Ratios are sums over the arm&apos;s ended runs (numerator / denominator), with the delta method&apos;s interval and the run as the
          unit; shares of runs have Wilson intervals, means per run t intervals. Each arm&apos;s line below its value is its difference from
          the control. {results.horizon.reached ? "" : "Every interval is interim: do not stop the experiment because one excludes 0."}
        </p>
        <p className={styles.downloads}>
          <DownloadButton
            name={`experiment-${results.experimentId}-results.csv`}
            text={() => armsCsv(results)}
            label="Download the table (CSV)"
          />
          <a href={experimentsApi.results.path.replace("{id}", experiment.id)} download={`experiment-${experiment.id}-results.json`}>
            Download the results (JSON)
          </a>
        </p>
        <PromoteArms experiment={experiment} />
      </div>
    </Panel>
  );
}

function MeasureCell({ arm, id, interim }: { arm: TArmResult; id: string; interim: boolean }) {
  const m = arm.measures.find((x) => x.id === id);
  if (!m) return <td>–</td>;
  return (
    <td>
      {estimateText(m)}
      {m.vsControl ? (
        <span className={styles.diff}>
          vs control: {measureDifferenceText(m.kind, m.vsControl, m.unit)}
          {interim ? " (interim)" : ""}
        </span>
      ) : null}
    </td>
  );
}

function PromoteArms({ experiment }: { experiment: TExperiment }) {
  const client = useQueryClient();
  const promote = useMutation({
    mutationFn: (arm: string) => promoteArm(experiment.id, arm, experiment.version),
    onSettled: () => client.invalidateQueries({ queryKey: experimentKeys.all }),
  });
  const promotable = experiment.arms.filter((a) => a.copyVersionId || a.policyVersionId);
  if (promotable.length === 0) return null;
  return (
    <div className={styles.promote}>
      <h3>Make an arm the default</h3>
      <p className="muted">
        Sets the project&apos;s default copy and policy versions (where the arm has them). Recorded runs do not change.
      </p>
      <div className={styles.actions}>
        {promotable.map((arm) => (
          <button
            key={arm.name}
            type="button"
            className="button button-quiet"
            disabled={promote.isPending}
            onClick={() => promote.mutate(arm.name)}
          >
            Make {arm.name} the default
          </button>
        ))}
      </div>
      {promote.isSuccess ? <p role="status">Done: {promote.variables} is the project&apos;s default.</p> : null}
      {promote.isError ? (
        <p role="alert" className={styles.error}>
          {promote.error.message}
        </p>
      ) : null}
    </div>
  );
}
