"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, type ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { MouseHandlerDataParam } from "recharts";
import type { TExperimentSummary, TRunFacets, TTrendDay, TTrendsResponse } from "@/lib/contracts";
import { trendCharts, type TrendRow } from "@/lib/charts/trends";
import { DEFAULT_SORT, runListHref, type RunListView } from "@/lib/queries/run-list-url";
import { experimentsQuery } from "@/lib/queries/experiments";
import { runFacetsQuery } from "@/lib/queries/runs";
import { trendsHref, trendsQuery, type TrendsView } from "@/lib/queries/trends";
import { newAlertHref } from "@/lib/queries/alerts";
import { useTimeZone } from "@/components/layout/time-zone";
import { Panel } from "@/components/ui/panel";
import { useHydrated } from "@/components/ui/use-hydrated";
import { EffectPanels } from "./effect-panels";
import { ReviewTrendsPanel } from "@/components/reviews/review-trends-panel";
import styles from "./trends.module.css";

const KEY_COLOURS: Record<string, string> = {
  requests: "#1f6fb2",
  time: "#7a4fb5",
  context: "#b5523b",
  edits: "#2f7d4f",
  review: "#8a6d00",
};
const PALETTE = ["#1f6fb2", "#b5523b", "#2f7d4f", "#7a4fb5", "#8a6d00", "#0f7c86", "#a33a6f", "#4d5b6b"];

/** What a chart counts, so that its day opens the runs that have it (and sorted by it). */
export type DayFocus = "drops" | "findings" | "violations";

const FOCUS: Record<DayFocus, { changes: Partial<RunListView>; words: string }> = {
  drops: { changes: { hasDrops: "1", sort: "-dropRate" }, words: "with dropped reminders" },
  findings: { changes: { sort: "-findings" }, words: "by findings" },
  violations: { changes: { hasViolations: "1" }, words: "with Reviewer violations" },
};

/**
 * The runs list over one day of the trends (the runs started that day in the zone), with the view's
 * agent, model, experiment and arm; from a chart of drops or violations only the runs that have them (drops sorted
 * by drop rate), from the findings chart sorted by findings.
 */
export function dayRunsHref(day: Pick<TTrendDay, "start" | "end">, view: TrendsView, focus?: DayFocus): string {
  return runListHref(
    { sort: DEFAULT_SORT },
    {
      from: day.start,
      to: day.end,
      agent: view.agent,
      model: view.model,
      experiment: view.experiment,
      arm: view.arm,
      ...(focus ? FOCUS[focus].changes : {}),
    },
  );
}

/** /trends: per day of the user's time zone, drop rates, counts per key, findings, Reviewer violations and follow-up. */
export function TrendsPage({ view }: { view: TrendsView }) {
  const { zone } = useTimeZone();
  const trends = useQuery(trendsQuery({ ...view, tz: zone }));
  const facets = useQuery(runFacetsQuery());
  const experiments = useQuery(experimentsQuery());
  return (
    <div className={styles.page}>
      <header className={styles.head}>
        <h1>Trends</h1>
        <p className="muted">
          Per day in <strong>{zone}</strong> (change it in the Account menu). Counted from each run&apos;s stored rebuild, by the time of
          its turns. Click a day to list the runs started that day (from a chart of drops or violations, the runs that have them).
        </p>
      </header>
      <TrendsFilters view={view} facets={facets.data} data={trends.data} experiments={experiments.data?.experiments} />
      {trends.isError ? (
        <p role="alert" className={styles.error}>
          The trends could not be loaded: {trends.error.message}
        </p>
      ) : !trends.data ? (
        <p aria-busy="true">Loading trends…</p>
      ) : (
        <TrendsCharts data={trends.data} view={view} />
      )}
      <ReviewTrendsPanel
        window={{ tz: zone, from: view.from, to: view.to }}
        filtered={Boolean(view.agent || view.model || view.copyVersion || view.policyVersion || view.experiment)}
      />
      <EffectPanels filters={{ ...view, tz: zone }} />
    </div>
  );
}

function TrendsFilters({
  view,
  facets,
  data,
  experiments,
}: {
  view: TrendsView;
  facets?: TRunFacets;
  data?: TTrendsResponse;
  experiments?: readonly TExperimentSummary[];
}) {
  const router = useRouter();
  const id = useId();
  const hydrated = useHydrated();
  // The URL's value stays selectable when the list does not have it (a shared link, an id sent by an agent).
  const withValue = (value: string | undefined, options: { value: string; label: string }[]) =>
    value && !options.some((o) => o.value === value) ? [{ value, label: value }, ...options] : options;
  const chosen = experiments?.find((e) => e.id === view.experiment);
  const select = (name: keyof TrendsView, label: string, options: { value: string; label: string }[]) => (
    <label className={styles.field} htmlFor={`${id}-${name}`}>
      <span>{label}</span>
      <select
        id={`${id}-${name}`}
        value={view[name] ?? ""}
        data-hydrated={hydrated ? "true" : undefined}
        // Another experiment has other arms: choosing one clears the arm.
        onChange={(e) =>
          router.push(trendsHref({ ...view, ...(name === "experiment" ? { arm: undefined } : {}), [name]: e.target.value || undefined }))
        }
      >
        <option value="">All</option>
        {withValue(view[name], options).map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
  const date = (name: "from" | "to", label: string) => (
    <label className={styles.field} htmlFor={`${id}-${name}`}>
      <span>{label}</span>
      <input
        id={`${id}-${name}`}
        type="date"
        data-hydrated={hydrated ? "true" : undefined}
        value={view[name] ?? data?.[name] ?? ""}
        onChange={(e) => e.target.value && router.push(trendsHref({ ...view, from: data?.from, to: data?.to, [name]: e.target.value }))}
      />
    </label>
  );
  return (
    <form className={styles.filters} aria-label="Trend filters" onSubmit={(e) => e.preventDefault()}>
      {select(
        "agent",
        "Agent",
        (facets?.agents ?? []).map((a) => ({ value: a, label: a })),
      )}
      {select(
        "model",
        "Model",
        (facets?.models ?? []).map((m) => ({ value: m, label: m })),
      )}
      {select(
        "copyVersion",
        "Copy version",
        (data?.copyVersions ?? []).map((v) => ({ value: v.id, label: v.label })),
      )}
      {select(
        "policyVersion",
        "Policy version",
        (data?.policyVersions ?? []).map((v) => ({ value: v.id, label: v.label })),
      )}
      {select(
        "experiment",
        "Experiment",
        (experiments ?? []).map((e) => ({ value: e.id, label: e.name })),
      )}
      {view.experiment
        ? select(
            "arm",
            "Arm",
            (chosen?.arms ?? []).map((a) => ({ value: a.name, label: a.name })),
          )
        : null}
      {date("from", "From day")}
      {date("to", "To day")}
      <Link href="/trends" className="button button-quiet">
        Last 14 days, all runs
      </Link>
    </form>
  );
}

function TrendsCharts({ data, view }: { data: TTrendsResponse; view: TrendsView }) {
  const router = useRouter();
  const charts = trendCharts(data);
  const byDay = new Map(data.days.map((d) => [d.day, d]));
  const openFor = (focus?: DayFocus) => (state: MouseHandlerDataParam) => {
    const index = typeof state?.activeTooltipIndex === "number" ? state.activeTooltipIndex : Number(state?.activeTooltipIndex);
    const day = Number.isInteger(index) ? data.days[index] : undefined;
    if (day) router.push(dayRunsHref(day, view, focus));
  };
  if (!charts.hasData) {
    return (
      <section className={styles.empty} aria-labelledby="trends-empty">
        <h2 id="trends-empty">No turns in this window</h2>
        <p>
          No stored run has turns from {data.from} to {data.to} ({data.tz}) with these filters. A run counts here once its background
          rebuild has run. Widen the dates or clear the filters.
        </p>
      </section>
    );
  }
  // "Alert on this": the alerts page's form, filled in with the chart's condition and the view's agent and model.
  const scope = { agent: view.agent, model: view.model };
  const mostDropped = [...data.days.flatMap((d) => d.keys)].sort((a, b) => b.dropped - a.dropped)[0]?.key;
  const found = new Map<string, number>();
  for (const f of data.days.flatMap((d) => d.findings)) found.set(f.code, (found.get(f.code) ?? 0) + f.count);
  const mostFound = [...found].sort((a, b) => b[1] - a[1])[0]?.[0];
  const alertOn = (what: string, href: string) => (
    <>
      {" · "}
      <Link href={href} aria-label={`Alert on this: ${what}`} className={styles.alertLink}>
        Alert on this
      </Link>
    </>
  );
  const dayLinks = (rows: TrendRow[], value: (row: TrendRow) => string, focus: DayFocus) => (
    <DayTable rows={rows} value={value} byDay={byDay} view={view} focus={focus} />
  );
  return (
    <div className={styles.charts}>
      <Panel
        id="trend-drop-rate"
        title="Drop rate per key"
        meta={
          <>
            % of the key&apos;s candidates, per day
            {alertOn("a key's drop rate", newAlertHref({ kind: "drop_rate", key: mostDropped, ...scope }))}
          </>
        }
      >
        <Chart summary={charts.summaries.dropRate} table={dayLinks(charts.dropRate, (r) => keysText(r, "%"), "drops")}>
          <LineChart data={charts.dropRate} onClick={openFor("drops")} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="day" />
            <YAxis unit="%" domain={[0, 100]} label={{ value: "% dropped", angle: -90, position: "insideLeft" }} />
            <Tooltip formatter={(v) => (v === null || v === undefined ? "–" : `${Number(v).toFixed(1)}%`)} />
            <Legend />
            {Object.keys(KEY_COLOURS).map((key) => (
              <Line key={key} dataKey={key} name={key} stroke={KEY_COLOURS[key]} connectNulls={false} isAnimationActive={false} />
            ))}
          </LineChart>
        </Chart>
      </Panel>

      <Panel id="trend-per-key" title="Reminders per key" meta="candidates, delivered and dropped, in reminders, per day">
        <div className={styles.multiples}>
          {charts.perKey.map((k) => (
            <figure key={k.key} className={styles.multiple}>
              <figcaption>{k.key} (reminders)</figcaption>
              <Chart summary={k.summary} small>
                <BarChart data={k.rows} onClick={openFor("drops")} accessibilityLayer={false}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="day" tick={{ fontSize: 10 }} />
                  <YAxis allowDecimals={false} label={{ value: "reminders", angle: -90, position: "insideLeft", fontSize: 11 }} />
                  <Tooltip />
                  <Bar dataKey="candidates" fill="#8a9bb0" isAnimationActive={false} />
                  <Bar dataKey="delivered" fill="#2f7d4f" isAnimationActive={false} />
                  <Bar dataKey="dropped" fill="#b5523b" isAnimationActive={false} />
                </BarChart>
              </Chart>
            </figure>
          ))}
        </div>
      </Panel>

      <Panel
        id="trend-findings"
        title="Findings per 1,000 turns"
        meta={
          <>
            by code, per day
            {alertOn("a finding code", newAlertHref({ kind: "finding", code: mostFound, ...scope }))}
          </>
        }
      >
        <Chart summary={charts.summaries.findings}>
          <BarChart data={charts.findings.rows} onClick={openFor("findings")} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="day" />
            <YAxis label={{ value: "findings / 1,000 turns", angle: -90, position: "insideLeft" }} />
            <Tooltip formatter={(v) => (v === null || v === undefined ? "–" : Number(v).toFixed(1))} />
            <Legend />
            {charts.findings.codes.map((code, i) => (
              <Bar key={code} dataKey={code} stackId="f" fill={PALETTE[i % PALETTE.length]} isAnimationActive={false} />
            ))}
          </BarChart>
        </Chart>
      </Panel>

      <Panel
        id="trend-violations"
        title="Reviewer violations"
        meta={
          <>
            Reviewer findings, per day
            {alertOn("Reviewer violations", newAlertHref({ kind: "reviewer_violations", ...scope }))}
          </>
        }
      >
        <Chart summary={charts.summaries.violations} table={dayLinks(charts.violations, (r) => `${r.violations} violations`, "violations")}>
          <BarChart data={charts.violations} onClick={openFor("violations")} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="day" />
            <YAxis allowDecimals={false} label={{ value: "findings", angle: -90, position: "insideLeft" }} />
            <Tooltip />
            <Bar dataKey="violations" name="Reviewer violations" fill="#b5523b" isAnimationActive={false} />
          </BarChart>
        </Chart>
      </Panel>

      <Panel
        id="trend-follow-up"
        title="Follow-up rate per copy version"
        meta="% of delivered reminders followed (association, not effect)"
      >
        <Chart summary={charts.summaries.followUp}>
          <LineChart data={charts.followUp.rows} onClick={openFor()} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="day" />
            <YAxis unit="%" domain={[0, 100]} label={{ value: "% followed", angle: -90, position: "insideLeft" }} />
            <Tooltip formatter={(v) => (v === null || v === undefined ? "–" : `${Number(v).toFixed(1)}%`)} />
            <Legend />
            {charts.followUp.versions.map((v, i) => (
              <Line key={v.id} dataKey={v.id} name={v.label} stroke={PALETTE[i % PALETTE.length]} isAnimationActive={false} />
            ))}
          </LineChart>
        </Chart>
      </Panel>
    </div>
  );
}

function keysText(row: TrendRow, unit: string): string {
  return Object.keys(KEY_COLOURS)
    .filter((k) => row[k] !== null && row[k] !== undefined)
    .map((k) => `${k} ${Number(row[k]).toFixed(1)}${unit}`)
    .join(", ");
}

/** A chart with its text summary (and optionally its values per day, each day a link to its runs). */
function Chart({ summary, table, small, children }: { summary: string; table?: ReactNode; small?: boolean; children: ReactNode }) {
  return (
    <div className={styles.chart}>
      <div className={small ? styles.plotSmall : styles.plot} aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          {children as React.ReactElement}
        </ResponsiveContainer>
      </div>
      <p className={styles.summary}>{summary}</p>
      {table}
    </div>
  );
}

function DayTable({
  rows,
  value,
  byDay,
  view,
  focus,
}: {
  rows: TrendRow[];
  value: (row: TrendRow) => string;
  byDay: Map<string, TTrendDay>;
  view: TrendsView;
  focus: DayFocus;
}) {
  return (
    <details className={styles.table}>
      <summary>Values per day</summary>
      <ul>
        {rows.map((row) => (
          <li key={row.day}>
            <Link href={dayRunsHref(byDay.get(row.day)!, view, focus)}>
              Runs of {row.day} {FOCUS[focus].words}
            </Link>
            : {value(row) || "no candidates"}
          </li>
        ))}
      </ul>
    </details>
  );
}
