/**
 * The report and verdict of `npm run test:load -- --profile mixed` (lib/client/load-mixed.ts): every
 * request is a sample (its class, endpoint, status and latency); the report gives p50/p95/max and the
 * statuses per class and per endpoint, and the verdict lists what failed (issue 22: nothing 5xx but
 * a 503 with Retry-After, acknowledged = stored, health answered within 1 s, event-loop lag ≤ 500 ms).
 * Pure: no network, no clock.
 */
import { MAX_EVENT_LOOP_LAG_MS } from "./health-watch";
import { percentile } from "./load";

/** The slowest a `GET /api/v1/health` answer may take while the load runs (ms). */
export const MAX_HEALTH_LATENCY_MS = 1_000;

/**
 * The request classes, in report order: ingest batches; reads of the loaded project (pages and API);
 * reads of another project (cross-project isolation); comment writes; replays (start and polls);
 * the health checks of the watcher.
 */
export const MIXED_CLASSES = ["ingest", "read", "read-other", "comment", "replay", "health"] as const;
export type MixedClass = (typeof MIXED_CLASSES)[number];

export interface Sample {
  cls: MixedClass;
  /** What was asked, e.g. "runs-list", "run-page", "timeline-zoom". */
  endpoint: string;
  /** The status code, "network" (no answer), or NO_RETRY_AFTER_503 (lib/client/load.ts). */
  status: string;
  ms: number;
}

export interface Summary {
  name: string;
  count: number;
  statuses: Record<string, number>;
  p50: number;
  p95: number;
  max: number;
}

/** The samples grouped by class (in MIXED_CLASSES order) or by endpoint (class order, then name). */
export function summarize(samples: readonly Sample[], by: "cls" | "endpoint"): Summary[] {
  const groups = new Map<string, Sample[]>();
  const rank = (s: Sample) => MIXED_CLASSES.indexOf(s.cls);
  const ordered = [...samples].sort((a, b) => rank(a) - rank(b) || (by === "endpoint" ? a.endpoint.localeCompare(b.endpoint) : 0));
  for (const sample of ordered) {
    const name = by === "cls" ? sample.cls : `${sample.cls}/${sample.endpoint}`;
    let group = groups.get(name);
    if (!group) groups.set(name, (group = []));
    group.push(sample);
  }
  return [...groups].map(([name, group]) => {
    const sorted = group.map((s) => s.ms).sort((a, b) => a - b);
    const statuses: Record<string, number> = {};
    for (const s of group) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
    return { name, count: group.length, statuses, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? 0 };
  });
}

/** A status that fails the load: no answer, or a 5xx other than a 503 that says when to retry. */
export function isFailingStatus(status: string): boolean {
  return status === "network" || (status.startsWith("5") && status !== "503");
}

export interface MixedOutcome {
  samples: readonly Sample[];
  durationMs: number;
  /** Distinct event ids acknowledged by the ingest answers, and read back afterwards. */
  acknowledged: number;
  stored: number;
  missing: number;
  storedTwice: number;
  eventErrors: number;
  /** The worst `eventLoop.worstLagMs` health reported during the load (null: never reported). */
  worstLagMs: number | null;
  /** Replay jobs started, and the ones that ended (done, cancelled or failed) before the load did. */
  replays: { started: number; finished: number };
  /** What a reader could not do (e.g. pages without a session): said in the report. */
  notes?: string[];
}

/** Why the load failed; empty when it passed. */
export function mixedFailures(outcome: MixedOutcome): string[] {
  const failures: string[] = [];
  const failing = outcome.samples.filter((s) => isFailingStatus(s.status));
  if (failing.length > 0) {
    const counts = summarize(failing, "endpoint")
      .map((s) => `${s.name} ${formatStatuses(s.statuses)}`)
      .join("; ");
    failures.push(`${failing.length} requests answered a 5xx other than 503 with Retry-After, or not at all: ${counts}`);
  }
  if (outcome.acknowledged !== outcome.stored || outcome.missing > 0 || outcome.storedTwice > 0)
    failures.push(
      `acknowledged ${outcome.acknowledged} ≠ stored ${outcome.stored} (missing ${outcome.missing}, stored twice ${outcome.storedTwice})`,
    );
  if (outcome.eventErrors > 0) failures.push(`${outcome.eventErrors} events of valid batches were answered with an error`);
  const health = outcome.samples.filter((s) => s.cls === "health");
  const slowest = Math.max(0, ...health.map((s) => s.ms));
  if (health.length === 0) failures.push("health was never asked");
  else if (slowest > MAX_HEALTH_LATENCY_MS)
    failures.push(`health answered in ${slowest.toFixed(0)} ms at worst (limit ${MAX_HEALTH_LATENCY_MS} ms)`);
  if (outcome.worstLagMs === null) failures.push("the server did not report its event-loop lag");
  else if (outcome.worstLagMs > MAX_EVENT_LOOP_LAG_MS)
    failures.push(`event-loop lag ${outcome.worstLagMs} ms (limit ${MAX_EVENT_LOOP_LAG_MS} ms)`);
  return failures;
}

function formatStatuses(statuses: Record<string, number>): string {
  return Object.entries(statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, n]) => `${s}×${n}`)
    .join(" ");
}

function table(title: string, rows: readonly Summary[]): string[] {
  const width = Math.max(title.length, ...rows.map((r) => r.name.length));
  const head = `${title.padEnd(width)}  requests   p50 ms   p95 ms   max ms  statuses`;
  return [
    head,
    ...rows.map(
      (r) =>
        `${r.name.padEnd(width)}  ${String(r.count).padStart(8)} ${r.p50.toFixed(0).padStart(8)} ${r.p95.toFixed(0).padStart(8)} ${r.max
          .toFixed(0)
          .padStart(8)}  ${formatStatuses(r.statuses)}`,
    ),
  ];
}

/** The report as plain text: per class, per endpoint, every status, events, health, lag, verdict. */
export function formatMixedReport(outcome: MixedOutcome): string {
  const all: Record<string, number> = {};
  for (const s of outcome.samples) all[s.status] = (all[s.status] ?? 0) + 1;
  const health = summarize(
    outcome.samples.filter((s) => s.cls === "health"),
    "cls",
  )[0];
  const failures = mixedFailures(outcome);
  return [
    `mixed load for ${(outcome.durationMs / 1000).toFixed(1)} s: ${outcome.samples.length} requests (${formatStatuses(all)})`,
    "",
    ...table("class", summarize(outcome.samples, "cls")),
    "",
    ...table("class/endpoint", summarize(outcome.samples, "endpoint")),
    "",
    `events:        acknowledged ${outcome.acknowledged}, stored ${outcome.stored} (missing ${outcome.missing}, stored twice ${outcome.storedTwice}), event errors ${outcome.eventErrors}`,
    `replays:       ${outcome.replays.started} started, ${outcome.replays.finished} ended during the load`,
    `health:        ${health ? `p95 ${health.p95.toFixed(0)} ms, max ${health.max.toFixed(0)} ms` : "never asked"} (limit ${MAX_HEALTH_LATENCY_MS} ms)`,
    `event loop:    worst lag ${outcome.worstLagMs === null ? "not reported" : `${outcome.worstLagMs} ms`} (limit ${MAX_EVENT_LOOP_LAG_MS} ms)`,
    ...(outcome.notes ?? []).map((note) => `note:          ${note}`),
    failures.length === 0
      ? `PASS: nothing 5xx but 503 with Retry-After, acknowledged = stored, health ≤ ${MAX_HEALTH_LATENCY_MS} ms, lag ≤ ${MAX_EVENT_LOOP_LAG_MS} ms`
      : failures.map((f) => `FAIL: ${f}`).join("\n"),
  ].join("\n");
}
