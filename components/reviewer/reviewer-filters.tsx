"use client";

import Link from "next/link";
import type { TRunFacets } from "@/lib/contracts";
import {
  CLEARED,
  hasReviewerFilters,
  reviewerExportHref,
  REVIEWER_PAGE_SIZE,
  REVIEWER_PAGE_SIZES,
  reviewerHref,
  reviewerPageSize,
  reviewerViewQuery,
  type ReviewerFilters,
  type ReviewerView,
} from "@/lib/queries/reviewer-url";
import { FacetSelect, RangeSelect } from "@/components/filters/filter-selects";
import { PageSizeSelect } from "@/components/ui/page-size-select";
import { SavedViewsMenu } from "@/components/views/saved-views-menu";
import { RunPicker } from "./run-picker";
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
          <input
            type="checkbox"
            checked={Boolean(view.violations)}
            onChange={(e) => navigate({ violations: e.target.checked || undefined })}
          />
          <span>Only violations</span>
        </label>
        <FacetSelect label="Agent" all="All agents" value={view.agent} options={facets?.agents} onChange={(agent) => navigate({ agent })} />
        <FacetSelect label="Model" all="All models" value={view.model} options={facets?.models} onChange={(model) => navigate({ model })} />
        <RangeSelect label="Runs started" range={view.range} from={view.from} to={view.to} onChange={(range) => navigate({ range })} />
        {view.run ? null : <RunPicker onPick={(run) => navigate({ run })} />}
        {view.code ? (
          <span className={styles.chip}>
            <span className={styles.chipLabel}>code</span>
            <span className={styles.chipValue}>{view.code}</span>
            <Link
              className={styles.chipRemove}
              href={reviewerHref(view, { code: undefined })}
              aria-label={`Show every code, not only ${view.code}`}
              scroll={false}
            >
              ✕
            </Link>
          </span>
        ) : null}
        {view.run ? (
          <span className={styles.chip} title={runTask ?? undefined}>
            <span className={styles.chipLabel}>run</span>
            <span className={styles.chipValue}>{view.run}</span>
            <Link
              className={styles.chipRemove}
              href={reviewerHref(view, { run: undefined })}
              aria-label={`Show all runs, not only ${view.run}`}
              scroll={false}
            >
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
      <PageSizeSelect
        value={reviewerPageSize(view)}
        sizes={REVIEWER_PAGE_SIZES}
        onChange={(size) => navigate({ limit: size === REVIEWER_PAGE_SIZE ? undefined : String(size) })}
      />
      <SavedViewsMenu page="reviewer" query={reviewerViewQuery(view)} hrefOf={(query) => (query ? `/reviewer?${query}` : "/reviewer")} />
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
