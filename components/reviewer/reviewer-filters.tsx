"use client";

import Link from "next/link";
import type { TRunFacets } from "../../lib/contracts";
import { formatInstant } from "../../lib/format";
import {
  CLEARED,
  hasReviewerFilters,
  REVIEWER_RANGES,
  reviewerExportHref,
  reviewerHref,
  type ReviewerFilters,
  type ReviewerRange,
  type ReviewerView,
} from "../../lib/queries/reviewer-url";
import styles from "./reviewer-filters.module.css";

type Props = {
  view: ReviewerView;
  /** The filters the server parsed from the URL: the export links carry exactly these. */
  filters: ReviewerFilters;
  facets: TRunFacets | undefined;
  navigate: (changes: Partial<ReviewerView>) => void;
  /** The task of the run filtered to, when known, to name it in its chip. */
  runTask: string | null;
};

/** The audit's filter bar and export links: every control reads and writes the URL. */
export function ReviewerFilterBar({ view, filters, facets, navigate, runTask }: Props) {
  return (
    <div className={styles.bar}>
      <form className={styles.filters} role="search" aria-label="Filter Reviewer candidates" onSubmit={(e) => e.preventDefault()}>
        <label className={styles.check}>
          <input type="checkbox" checked={Boolean(view.violations)} onChange={(e) => navigate({ violations: e.target.checked || undefined })} />
          <span>Only violations</span>
        </label>
        <FacetSelect label="Agent" all="All agents" value={view.agent} options={facets?.agents} onChange={(agent) => navigate({ agent })} />
        <FacetSelect label="Model" all="All models" value={view.model} options={facets?.models} onChange={(model) => navigate({ model })} />
        <RangeSelect view={view} onChange={(range) => navigate({ range })} />
        {view.run ? (
          <span className={styles.chip} title={runTask ?? undefined}>
            <span className={styles.chipLabel}>run</span>
            <span className={styles.chipValue}>{view.run}</span>
            <Link className={styles.chipRemove} href={reviewerHref(view, { run: undefined })} aria-label={`Show all runs, not only ${view.run}`} scroll={false}>
              ✕
            </Link>
          </span>
        ) : null}
        {hasReviewerFilters(view) ? (
          <Link className={styles.clear} href={reviewerHref(view, CLEARED)} scroll={false}>
            Clear filters
          </Link>
        ) : null}
      </form>
      <div className={styles.export} role="group" aria-label="Export">
        <span className={styles.exportLabel} title="Every candidate matching the filters (all pages), as a file">
          Export
        </span>
        <a className={styles.exportLink} href={reviewerExportHref(filters, "csv")} download aria-label="Export CSV">
          CSV
        </a>
        <a className={styles.exportLink} href={reviewerExportHref(filters, "json")} download aria-label="Export JSON">
          JSON
        </a>
      </div>
    </div>
  );
}

type FacetSelectProps = {
  label: string;
  all: string;
  value: string | undefined;
  options: readonly string[] | undefined;
  onChange: (value: string | undefined) => void;
};

function FacetSelect({ label, all, value, options, onChange }: FacetSelectProps) {
  // The URL's value stays selectable even when no run has it (a shared link).
  const values = value && !options?.includes(value) ? [value, ...(options ?? [])] : (options ?? []);
  return (
    <label className={styles.field}>
      <span className="sr-only">{label}</span>
      <select className={styles.select} aria-label={label} value={value ?? ""} onChange={(e) => onChange(e.target.value || undefined)}>
        <option value="">{all}</option>
        {values.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    </label>
  );
}

function RangeSelect({ view, onChange }: { view: ReviewerView; onChange: (range: ReviewerRange | undefined) => void }) {
  const custom = !view.range && (view.from || view.to);
  const customLabel = custom
    ? [view.from ? `from ${formatInstant(view.from)}` : null, view.to ? `to ${formatInstant(view.to)}` : null].filter(Boolean).join(" ")
    : "";
  return (
    <label className={styles.field}>
      <span className="sr-only">Runs started</span>
      <select
        className={styles.select}
        aria-label="Runs started"
        value={custom ? "custom" : (view.range ?? "")}
        onChange={(e) => onChange((e.target.value || undefined) as ReviewerRange | undefined)}
      >
        <option value="">All time</option>
        {(Object.keys(REVIEWER_RANGES) as ReviewerRange[]).map((range) => (
          <option key={range} value={range}>
            {REVIEWER_RANGES[range].label}
          </option>
        ))}
        {custom ? (
          <option value="custom" disabled>
            {customLabel}
          </option>
        ) : null}
      </select>
    </label>
  );
}
