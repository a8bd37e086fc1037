"use client";

import { useQuery } from "@tanstack/react-query";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { TOtlpRecordsResponse } from "@/lib/contracts";
import { modelRequestBars, otlpRecordName } from "@/lib/charts/model-requests";
import { formatCount, formatLatency, formatNumber, formatTokens, formatTurn } from "@/lib/format";
import { useFormatInstant } from "@/components/layout/time-zone";
import { runOtlpRecordsQuery } from "@/lib/queries/otlp";
import { ChartFigure } from "@/components/ui/chart-figure";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { PanelError } from "./panel-state";
import styles from "./run.module.css";

/** The run's OpenTelemetry records, fetched (and polled with the run); nothing at all for a run without any. */
export function RunOtlpPanel({ runId, poll }: { runId: string; poll: number | false }) {
  const records = useQuery({ ...runOtlpRecordsQuery(runId), refetchInterval: poll });
  if (records.isError) return <PanelError what="the OpenTelemetry records" error={records.error} onRetry={() => records.refetch()} />;
  if (!records.data) return null;
  const { counts } = records.data;
  if (counts.modelRequests + counts.spans + counts.logs === 0) return null;
  return <OtlpRecordsView data={records.data} />;
}

/**
 * What OTLP ingestion kept for the run besides telemetry events (docs/contract/otlp.md): model
 * requests from GenAI spans, with provider-reported tokens per request (labelled tokens, never
 * bytes), and the spans and log records kept raw.
 */
export function OtlpRecordsView({ data }: { data: TOtlpRecordsResponse }) {
  const formatInstant = useFormatInstant();
  const { counts, tokens, records } = data;
  const requests = records.filter((r) => r.kind === "model_request");
  const others = records.filter((r) => r.kind !== "model_request");
  const bars = modelRequestBars(records);
  const largest = bars.reduce((a, b) => (b.input > a.input ? b : a), bars[0] ?? { label: "", model: null, input: 0, output: 0 });
  const total = counts.modelRequests + counts.spans + counts.logs;
  const summary = [
    formatCount(counts.modelRequests, "model request"),
    `${formatTokens(tokens.input)} in`,
    `${formatTokens(tokens.output)} out`,
    formatCount(counts.spans, "other span"),
    formatCount(counts.logs, "log record"),
  ].join(" · ");
  return (
    <section className={styles.card} aria-labelledby="otlp-title">
      <header className={`panel-header ${styles.cardHeader}`}>
        <h2 id="otlp-title">Model requests (OpenTelemetry)</h2>
        <span className={styles.meterMeta}>{summary}</span>
      </header>
      {bars.length > 0 && (
        <ChartFigure
          className={styles.otlpChart}
          caption="Tokens per model request"
          unit="tokens, as the provider reported them"
          summary={`${formatCount(bars.length, "request")} with tokens reported, ${formatTokens(tokens.input)} in and ${formatTokens(tokens.output)} out in all; the largest input, ${largest.label}, ${formatTokens(largest.input)}.`}
          table={{
            columns: [
              { key: "label", label: "Request" },
              { key: "model", label: "Model" },
              { key: "input", label: "Input", unit: "tokens" },
              { key: "output", label: "Output", unit: "tokens" },
            ],
            rows: bars.map((b) => ({
              label: b.label,
              model: b.model ?? "—",
              input: formatNumber(b.input),
              output: formatNumber(b.output),
            })),
          }}
        >
          <div className={styles.otlpChartBox}>
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={bars} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
                <CartesianGrid vertical={false} stroke="var(--border)" />
                <XAxis dataKey="label" tickLine={false} stroke="var(--text-faint)" fontSize={12} />
                <YAxis
                  allowDecimals={false}
                  width={56}
                  tickLine={false}
                  stroke="var(--text-faint)"
                  fontSize={12}
                  tickFormatter={(v: number) => formatNumber(v)}
                />
                <Tooltip formatter={(value) => formatTokens(Number(value))} cursor={{ fill: "var(--surface-2)" }} />
                <Legend wrapperStyle={{ fontSize: 12 }} />
                <Bar dataKey="input" name="Input tokens" stackId="tokens" fill="var(--accent)" isAnimationActive={false} />
                <Bar dataKey="output" name="Output tokens" stackId="tokens" fill="var(--text-faint)" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </div>
        </ChartFigure>
      )}
      {requests.length > 0 && (
        <ScrollRegion label="Model requests table">
          <table className="data-table" aria-label="Model requests">
            <thead>
              <tr>
                <th scope="col">Turn</th>
                <th scope="col">Model</th>
                <th scope="col">Started</th>
                <th scope="col">Duration</th>
                <th scope="col">Input</th>
                <th scope="col">Output</th>
              </tr>
            </thead>
            <tbody>
              {requests.map((record) => (
                <tr key={record.key}>
                  <td>{record.turn !== null ? formatTurn(record.turn) : "—"}</td>
                  <td>{record.modelRequest?.model ?? "—"}</td>
                  <td>{formatInstant(record.ts)}</td>
                  <td>{formatLatency(record.modelRequest?.durationMs ?? null)}</td>
                  <td>{formatTokens(record.modelRequest?.inputTokens ?? null)}</td>
                  <td>{formatTokens(record.modelRequest?.outputTokens ?? null)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {others.length > 0 && (
        <ScrollRegion label="Other OpenTelemetry records table">
          <table className="data-table" aria-label="Other OpenTelemetry records">
            <caption className={styles.otlpCaption}>Kept as sent (no telemetry event in them)</caption>
            <thead>
              <tr>
                <th scope="col">Kind</th>
                <th scope="col">Name</th>
                <th scope="col">Time</th>
                <th scope="col">Attributes</th>
              </tr>
            </thead>
            <tbody>
              {others.map((record) => (
                <tr key={record.key}>
                  <td>{record.kind === "log" ? "log record" : "span"}</td>
                  <td>{otlpRecordName(record)}</td>
                  <td>{formatInstant(record.ts)}</td>
                  <td>{attributeText(record.data.attributes)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {records.length < total && (
        <p className={styles.empty}>
          Showing the first {formatNumber(records.length)} of {formatNumber(total)} records; the API lists them all (GET …/otlp with its
          nextCursor).
        </p>
      )}
    </section>
  );
}

/** A short view of a record's attributes: `key=value` pairs, cut to a line. */
function attributeText(attributes: unknown): string {
  if (!attributes || typeof attributes !== "object") return "—";
  const text = Object.entries(attributes)
    .filter(([key]) => !key.startsWith("cuescope."))
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(" ");
  return text === "" ? "—" : text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
