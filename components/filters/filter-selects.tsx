"use client";

import { useFormatInstant } from "@/components/layout/time-zone";
import { TIME_RANGES, type TimeRange } from "@/lib/queries/url-params";
import { useHydrated } from "@/components/ui/use-hydrated";
import styles from "./filter-select.module.css";

/** A filter over the values a facet takes (agents, models, experiments); "all" clears it. `labels`: what to show for a value, when not the value itself. */
export function FacetSelect({
  label,
  all,
  value,
  options,
  labels,
  onChange,
}: {
  label: string;
  all: string;
  value: string | undefined;
  options: readonly string[] | undefined;
  labels?: ReadonlyMap<string, string>;
  onChange: (value: string | undefined) => void;
}) {
  // The URL's value stays selectable even when no run has it (a shared link, a run since deleted).
  const values = value && !options?.includes(value) ? [value, ...(options ?? [])] : (options ?? []);
  const hydrated = useHydrated();
  return (
    <label className={styles.field}>
      <span className="sr-only">{label}</span>
      <select
        className={styles.select}
        aria-label={label}
        value={value ?? ""}
        data-hydrated={hydrated ? "true" : undefined}
        onChange={(e) => onChange(e.target.value || undefined)}
      >
        <option value="">{all}</option>
        {values.map((v) => (
          <option key={v} value={v}>
            {labels?.get(v) ?? v}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A preset time range (sliding window); fixed from/to from a shared link show as a custom entry. */
export function RangeSelect({
  label,
  range,
  from,
  to,
  onChange,
}: {
  label: string;
  range: TimeRange | undefined;
  from: string | undefined;
  to: string | undefined;
  onChange: (range: TimeRange | undefined) => void;
}) {
  const formatInstant = useFormatInstant();
  const custom = !range && (from || to);
  const customLabel = custom
    ? [from ? `from ${formatInstant(from)}` : null, to ? `to ${formatInstant(to)}` : null].filter(Boolean).join(" ")
    : "";
  const hydrated = useHydrated();
  return (
    <label className={styles.field}>
      <span className="sr-only">{label}</span>
      <select
        className={styles.select}
        aria-label={label}
        value={custom ? "custom" : (range ?? "")}
        data-hydrated={hydrated ? "true" : undefined}
        onChange={(e) => onChange((e.target.value || undefined) as TimeRange | undefined)}
      >
        <option value="">All time</option>
        {(Object.keys(TIME_RANGES) as TimeRange[]).map((preset) => (
          <option key={preset} value={preset}>
            {TIME_RANGES[preset].label}
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
