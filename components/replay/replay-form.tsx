"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { TCopyVersion, TPolicyVersion, TRunStatus } from "@/lib/contracts";
import { formatNumber } from "@/lib/format";
import { replayMatchingQuery } from "@/lib/queries/replay";
import { runFacetsQuery } from "@/lib/queries/runs";
import { replayRequest, type ReplayChoice } from "@/lib/queries/replay-choice";
import { FacetSelect, RangeSelect } from "@/components/filters/filter-selects";
import styles from "./replay.module.css";

type Props = {
  initial: ReplayChoice;
  copyVersions: readonly TCopyVersion[];
  policyVersions: readonly TPolicyVersion[];
  busy: boolean;
  error: string | null;
  onStart: (choice: ReplayChoice) => void;
};

/** Which runs (the runs list's filters) and which copy and/or policy version to replay them with. */
export function ReplayForm({ initial, copyVersions, policyVersions, busy, error, onStart }: Props) {
  const facets = useQuery(runFacetsQuery());
  const [choice, setChoice] = useState<ReplayChoice>(initial);
  const set = (changes: Partial<ReplayChoice>) => setChoice((c) => ({ ...c, ...changes }));
  const nothingChosen = !choice.copyVersionId && !choice.policyVersionId;
  // A preset range counts from when the form opened, so the count's query stays put while typing.
  const [openedAt] = useState(() => Date.now());
  const { filters = {}, maxRuns = choice.maxRuns } = replayRequest(choice, openedAt);
  const matching = useQuery(replayMatchingQuery(filters, maxRuns));
  const noRuns = matching.data?.runs === 0;

  return (
    <form
      className={styles.form}
      aria-label="Replay settings"
      onSubmit={(e) => {
        e.preventDefault();
        if (!nothingChosen) onStart(choice);
      }}
    >
      <fieldset className={styles.fieldset}>
        <legend>Try</legend>
        <VersionSelect
          label="Copy version"
          own="Each run's own copy"
          versions={copyVersions}
          value={choice.copyVersionId}
          onChange={(copyVersionId) => set({ copyVersionId })}
        />
        <VersionSelect
          label="Policy version"
          own="Each run's own policy"
          versions={policyVersions}
          value={choice.policyVersionId}
          onChange={(policyVersionId) => set({ policyVersionId })}
        />
      </fieldset>
      <fieldset className={styles.fieldset}>
        <legend>On runs</legend>
        <label className={styles.field}>
          <span className="sr-only">Task contains</span>
          <input
            type="search"
            placeholder="Task contains…"
            aria-label="Task contains"
            value={choice.q ?? ""}
            onChange={(e) => set({ q: e.target.value })}
          />
        </label>
        <FacetSelect
          label="Status"
          all="All statuses"
          value={choice.status}
          options={facets.data?.statuses}
          onChange={(status) => set({ status: status as TRunStatus | undefined })}
        />
        <FacetSelect
          label="Agent"
          all="All agents"
          value={choice.agent}
          options={facets.data?.agents}
          onChange={(agent) => set({ agent })}
        />
        <FacetSelect
          label="Model"
          all="All models"
          value={choice.model}
          options={facets.data?.models}
          onChange={(model) => set({ model })}
        />
        <RangeSelect
          label="Started"
          range={choice.range}
          from={choice.from}
          to={choice.to}
          onChange={(range) => set({ range, from: undefined, to: undefined })}
        />
        <label className={styles.field}>
          at most
          <input
            type="number"
            min={1}
            max={5000}
            aria-label="At most this many runs"
            className={styles.maxRuns}
            value={choice.maxRuns}
            onChange={(e) => set({ maxRuns: Math.min(5000, Math.max(1, Number(e.target.value) || 1)) })}
          />
          runs, newest first
        </label>
      </fieldset>
      <div className={styles.actions}>
        <p className={styles.matching} role="status" data-testid="matching">
          {matching.isError
            ? `The matching runs could not be counted (${matching.error.message}).`
            : !matching.data
              ? "Counting the matching runs…"
              : noRuns
                ? "No runs match these filters."
                : `Would rebuild ${formatNumber(matching.data.runs)} ${matching.data.runs === 1 ? "run" : "runs"} · ${formatNumber(matching.data.turns)} ${matching.data.turns === 1 ? "turn" : "turns"}${matching.data.more ? ` (the newest ${formatNumber(matching.data.maxRuns)}; more match)` : ""}`}
        </p>
        <button type="submit" className="button" disabled={busy || nothingChosen || noRuns}>
          {busy ? "Replaying…" : "Replay"}
        </button>
        {nothingChosen ? <span className="muted">Choose a copy version, a policy version, or both.</span> : null}
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    </form>
  );
}

/** A saved version to try, or none (each run keeps its own). */
function VersionSelect({
  label,
  own,
  versions,
  value,
  onChange,
}: {
  label: string;
  own: string;
  versions: readonly { id: string; name: string; isDefault: boolean }[];
  value: string | undefined;
  onChange: (id: string | undefined) => void;
}) {
  return (
    <label className={styles.field}>
      {label}
      <select aria-label={label} value={value ?? ""} onChange={(e) => onChange(e.target.value || undefined)}>
        <option value="">{own}</option>
        {versions.map((v) => (
          <option key={v.id} value={v.id}>
            {v.name}
            {v.isDefault ? " (default)" : ""}
          </option>
        ))}
      </select>
    </label>
  );
}
