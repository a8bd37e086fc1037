"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis, Bar, BarChart } from "recharts";
import type { TEffectivenessResponse } from "@/lib/contracts";
import { effectCharts, effectCsv, fatigueCsv } from "@/lib/charts/effect";
import { trendsApi } from "@/lib/endpoints/trends";
import { effectivenessQuery, type TrendsFilters } from "@/lib/queries/trends";
import { EffectTable, FatigueTable } from "@/components/effectiveness/effect-tables";
import { DownloadButton } from "@/components/ui/download-button";
import { Panel } from "@/components/ui/panel";
import { ScrollRegion } from "@/components/ui/scroll-region";
import styles from "./trends.module.css";

/**
 * The trends page's contract §10 panels over the same filters: follow-up of delivered vs dropped
 * reminders per key, stage and context stage (with intervals, and what the comparison can and cannot
 * mean), and reminder fatigue per key. Each table can be downloaded as CSV, the whole answer as JSON.
 */
export function EffectPanels({ filters }: { filters: TrendsFilters }) {
  const effect = useQuery(effectivenessQuery(filters));
  if (effect.isError) {
    return (
      <p role="alert" className={styles.error}>
        Delivered vs dropped follow-up could not be loaded: {effect.error.message}
      </p>
    );
  }
  if (!effect.data) return <p aria-busy="true">Loading delivered vs dropped follow-up…</p>;
  return <EffectContent data={effect.data} filters={filters} />;
}

function EffectContent({ data, filters }: { data: TEffectivenessResponse; filters: TrendsFilters }) {
  const charts = effectCharts(data);
  const json = jsonHref(filters);
  return (
    <>
      <Panel
        id="effect-delivered-dropped"
        title="Follow-up: delivered vs dropped"
        meta="% of reminders followed, 95% intervals (association)"
      >
        <div className={styles.chart}>
          <p className={styles.summary}>
            A reminder dropped for capacity (R8) was never in that request. Both are followed up by the same rule (§8, next 3 turns).{" "}
            <strong>This is an association, not an effect:</strong> dropping happens when the request is nearly full (compare within a
            context stage), a dropped reminder is often delivered on the next turn, and reminders of one run are not independent, so the
            intervals are too narrow when a few runs supply most of them. Only an experiment, which assigns whole runs at random, supports a
            claim that a change caused a difference.
          </p>
          {!charts.hasData ? (
            <p>
              No delivered or dropped reminders from {data.from} to {data.to} ({data.tz}) with these filters.
            </p>
          ) : (
            <>
              <ScrollRegion label="Delivered vs dropped, per key and stage">
                <EffectTable rows={charts.keys.flatMap((k) => k.totals)} caption="Every context stage together" />
              </ScrollRegion>
              <details className={styles.table}>
                <summary>By context stage at the reminder&apos;s turn</summary>
                <ScrollRegion label="Delivered vs dropped, per context stage">
                  <EffectTable
                    rows={charts.keys.flatMap((k) => k.byContext)}
                    caption="Per context stage (none: the run has no context meter)"
                  />
                </ScrollRegion>
              </details>
              <div className={styles.multiples}>
                {charts.keys.map((k) => (
                  <figure key={k.key} className={styles.multiple}>
                    <figcaption>{k.key}: % followed per day</figcaption>
                    <Plot small>
                      <LineChart data={k.days} accessibilityLayer={false}>
                        <CartesianGrid strokeDasharray="3 3" />
                        <XAxis dataKey="day" tick={{ fontSize: 10 }} />
                        <YAxis unit="%" domain={[0, 100]} tick={{ fontSize: 10 }} />
                        <Tooltip formatter={(v) => (v === null || v === undefined ? "–" : `${Number(v).toFixed(1)}%`)} />
                        <Legend />
                        <Line dataKey="delivered" name="delivered" stroke="#2f7d4f" connectNulls={false} isAnimationActive={false} />
                        <Line
                          dataKey="dropped"
                          name="dropped"
                          stroke="#b5523b"
                          strokeDasharray="4 3"
                          connectNulls={false}
                          isAnimationActive={false}
                        />
                      </LineChart>
                    </Plot>
                    <p className={styles.summary}>{k.summary}</p>
                  </figure>
                ))}
              </div>
            </>
          )}
          <p className={styles.downloads}>
            <DownloadButton name="delivered-vs-dropped.csv" text={() => effectCsv(data.rows)} label="Download the table (CSV)" />
            <a href={json} download="effectiveness.json">
              Download the answer (JSON)
            </a>
          </p>
        </div>
      </Panel>

      <Panel id="effect-fatigue" title="Reminder fatigue" meta="repeats (reminders), bytes, share of request capacity (bytes / bytes)">
        <div className={styles.chart}>
          {charts.fatigue.length === 0 ? (
            <p>No reminders were delivered in this window.</p>
          ) : (
            <>
              <ScrollRegion label="Reminder fatigue per key">
                <FatigueTable rows={charts.fatigue.map((f) => f.row)} />
              </ScrollRegion>
              <div className={styles.multiples}>
                {charts.fatigue.map((f) => (
                  <figure key={f.row.key} className={styles.multiple}>
                    <figcaption>{f.row.key}: repeats per day (reminders)</figcaption>
                    <Plot small>
                      <BarChart data={f.days} accessibilityLayer={false}>
                        <CartesianGrid strokeDasharray="3 3" />
                        <XAxis dataKey="day" tick={{ fontSize: 10 }} />
                        <YAxis allowDecimals={false} tick={{ fontSize: 10 }} />
                        <Tooltip />
                        <Bar dataKey="repeats" name="repeats" fill="#7a4fb5" isAnimationActive={false} />
                      </BarChart>
                    </Plot>
                    <p className={styles.summary}>{f.summary}</p>
                  </figure>
                ))}
              </div>
            </>
          )}
          <p className={styles.downloads}>
            <DownloadButton name="reminder-fatigue.csv" text={() => fatigueCsv(data.fatigue)} label="Download the table (CSV)" />
          </p>
        </div>
      </Panel>
    </>
  );
}

function Plot({ small, children }: { small?: boolean; children: ReactNode }) {
  return (
    <div className={small ? styles.plotSmall : styles.plot} aria-hidden="true">
      <ResponsiveContainer width="100%" height="100%">
        {children as React.ReactElement}
      </ResponsiveContainer>
    </div>
  );
}

function jsonHref(filters: TrendsFilters): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (typeof v === "string" && v) search.set(k, v);
  return `${trendsApi.effectiveness.path}?${search}`;
}
