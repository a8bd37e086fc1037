"use client";

import Link from "next/link";
import { newAlertHref } from "@/lib/queries/alerts";
import { useEffect, useRef, useState } from "react";
import {
  FINDING_CODES,
  RUN_SORTS,
  type TExperimentSummary,
  type TFindingCode,
  type TRunFacets,
  type TRunSort,
  type TRunStatus,
} from "@/lib/contracts";
import { CLEARED_FILTERS, hasFilters, runListHref, SORT_LABELS, type RunListView } from "@/lib/queries/run-list-url";
import { FacetSelect, RangeSelect } from "@/components/filters/filter-selects";
import styles from "./runs-filters.module.css";

const SEARCH_DEBOUNCE_MS = 300;

type Props = {
  view: RunListView;
  facets: TRunFacets | undefined;
  /** The project's experiments (contract §10), for the experiment and arm filters. */
  experiments?: readonly TExperimentSummary[];
  navigate: (changes: Partial<RunListView>, options?: { replace?: boolean }) => void;
};

/** The list's filter bar: every control reads and writes the URL. */
export function RunsFilters({ view, facets, experiments, navigate }: Props) {
  const chosen = experiments?.find((e) => e.id === view.experiment);
  return (
    <form className={styles.bar} role="search" aria-label="Filter runs" onSubmit={(e) => e.preventDefault()}>
      <SearchBox value={view.q ?? ""} onSearch={(q, replace) => navigate({ q: q || undefined }, { replace })} />
      <FacetSelect
        label="Status"
        all="All statuses"
        value={view.status}
        options={facets?.statuses}
        onChange={(status) => navigate({ status: status as TRunStatus | undefined })}
      />
      <FacetSelect label="Agent" all="All agents" value={view.agent} options={facets?.agents} onChange={(agent) => navigate({ agent })} />
      <FacetSelect label="Model" all="All models" value={view.model} options={facets?.models} onChange={(model) => navigate({ model })} />
      {experiments?.length || view.experiment ? (
        <FacetSelect
          label="Experiment"
          all="All experiments"
          value={view.experiment}
          options={experiments?.map((e) => e.id)}
          labels={new Map(experiments?.map((e) => [e.id, e.name]))}
          onChange={(experiment) => navigate({ experiment, arm: undefined })}
        />
      ) : null}
      {view.experiment ? (
        <FacetSelect
          label="Arm"
          all="All arms"
          value={view.arm}
          options={chosen?.arms.map((a) => a.name)}
          onChange={(arm) => navigate({ arm })}
        />
      ) : null}
      <RangeSelect label="Started" range={view.range} from={view.from} to={view.to} onChange={(range) => navigate({ range })} />
      <label className={styles.field}>
        <span className={styles.label}>Finding</span>
        <select
          className={styles.select}
          aria-label="Finding code"
          value={view.finding ?? ""}
          onChange={(e) => navigate({ finding: (e.target.value || undefined) as TFindingCode | undefined })}
        >
          <option value="">Any finding</option>
          {FINDING_CODES.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </select>
      </label>
      <label className={styles.field}>
        <input
          type="checkbox"
          checked={view.hasViolations === "1"}
          onChange={(e) => navigate({ hasViolations: e.target.checked ? "1" : undefined })}
        />
        <span className={styles.label}>Has Reviewer violations</span>
      </label>
      <label className={styles.field}>
        <input
          type="checkbox"
          checked={view.hasDrops === "1"}
          onChange={(e) => navigate({ hasDrops: e.target.checked ? "1" : undefined })}
        />
        <span className={styles.label}>Has drops</span>
      </label>
      <label className={styles.field}>
        <span className={styles.label}>Sort</span>
        <select
          className={styles.select}
          aria-label="Sort"
          value={view.sort}
          onChange={(e) => navigate({ sort: e.target.value as TRunSort })}
        >
          {RUN_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {SORT_LABELS[sort]}
            </option>
          ))}
        </select>
      </label>
      {hasFilters(view) ? (
        <Link className={styles.clear} href={runListHref(view, CLEARED_FILTERS)} scroll={false}>
          Clear filters
        </Link>
      ) : null}
      {alertDraftOf(view) ? (
        <Link className={styles.clear} href={newAlertHref(alertDraftOf(view)!)}>
          Alert on this filter
        </Link>
      ) : null}
    </form>
  );
}

/**
 * The alert rule a filter of the list stands for, if one does (docs/alerts.md): a finding code, Reviewer
 * violations, drops, or live runs (their meters), with the view's agent and model.
 */
function alertDraftOf(view: RunListView): Parameters<typeof newAlertHref>[0] | null {
  const scope = { agent: view.agent, model: view.model };
  if (view.finding) return { kind: "finding", code: view.finding, ...scope };
  if (view.hasViolations) return { kind: "reviewer_violations", ...scope };
  if (view.hasDrops) return { kind: "drop_rate", ...scope };
  if (view.status === "live") return { kind: "meter_stage", ...scope };
  return null;
}

/** Task search, sent to the URL after a pause in typing (or at once on Enter). */
function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string, replace: boolean) => void }) {
  const [text, setText] = useState(value);
  const sent = useRef(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // The URL changed from elsewhere (clear filters, back button): show what it says.
  useEffect(() => {
    if (value !== sent.current) {
      sent.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const send = (q: string, replace: boolean) => {
    clearTimeout(timer.current);
    const trimmed = q.trim();
    if (trimmed === sent.current) return;
    sent.current = trimmed;
    onSearch(trimmed, replace);
  };

  return (
    <label className={`${styles.field} ${styles.search}`}>
      <span className="sr-only">Search runs</span>
      <span className={styles.searchIcon} aria-hidden="true">
        ⌕
      </span>
      <input
        type="search"
        className={styles.input}
        placeholder="Search run, task, agent, model…"
        value={text}
        maxLength={200}
        onChange={(e) => {
          const next = e.target.value;
          setText(next);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => send(next, true), SEARCH_DEBOUNCE_MS);
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter") send(text, false);
        }}
      />
    </label>
  );
}
