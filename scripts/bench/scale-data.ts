/**
 * The scale bench's data: runs of the ETF research agent (anomalies on; several agents, models and
 * tasks; 500–999 turns, about 5,000 events each), generated and loaded a chunk at a time so a
 * million events never sit in memory at once. The last run is cut short (a run still going) so the
 * data set holds exactly the events asked for. Loading is timed through `ingestBatch`, and —
 * when asked — the same rows are written again by raw multi-row INSERTs into a copy of the
 * events table, chunk by chunk, so both run side by side on a table of the same size.
 */
import { AUDIT_ACTION_NAMES, ZAlertRuleCreate, type TAlertRuleCreate } from "@/lib/contracts";
import { assignArm } from "@/lib/core";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { createRule } from "@/lib/server/alerts/rules";
import type { Caller } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { progressBar } from "@/scripts/lib/progress";
import { countLabel } from "./scale-options";
import { ingestRuns, type RunEvents } from "./scale-db";
import type { RawInserter } from "./scale-raw";

const AGENTS = ["etf-research-agent", "etf-lite-agent", "etf-audit-agent"] as const;
const MODELS = ["m-large", "m-medium", "m-small", "m-large-2026-11"] as const;
const TASKS = [
  "Compare fees and holdings of VOO, IVV and SPLG",
  "Measure holdings overlap between QQQ, VGT and XLK",
  "Check the latest expense ratios of VTI, ITOT and SCHB",
  "Summarise five years of dividend history for SCHD and VYM",
  "Estimate tracking error of EFA, IEFA and VEA against MSCI EAFE",
] as const;

/** The filter the runs-list measurement uses: one agent of three. */
export const FILTER_AGENT = AGENTS[1];

/**
 * The data set's experiment (contract §10): every other run of the main project takes part, in the
 * arm assignArm gives it, so its results and the effectiveness of one arm are read at each size. Its
 * arms keep the agent's own copy and policy (the bench measures reads, not an effect).
 */
export const SCALE_EXPERIMENT = {
  id: "scale-experiment",
  arms: [
    { name: "A", weight: 1 },
    { name: "B", weight: 1 },
  ],
} as const;

/**
 * The data set's days: runs start in the 4 days from 2026-10-25 (UTC), inside the 14-day window the
 * effectiveness reads ask for (2026-10-25 to 2026-11-07; a run lasts hours, so one started late
 * still ends inside it). Four, so that the smallest data set (5 runs at 20k events) already starts a
 * run on each of them.
 */
const START = Date.parse("2026-10-25T00:00:00.000Z");
const SPAN_MS = 4 * 86_400_000;
/** 1/φ: run i starts at the fractional part of i/φ of the span, spread evenly at any size (run 0 first). */
const GOLDEN = (Math.sqrt(5) - 1) / 2;
/**
 * When run `index` starts: spread over the same days at every size (a low-discrepancy sequence, on
 * 15-minute bounds), so that a larger data set holds more runs on those days, as a steadier flow of
 * runs does, rather than more days: a read of a window grows with the days in it that hold data, up
 * to the window's own (bounded by the window, not by the data), and that filling is not what the
 * sizes compare.
 */
export function runStart(index: number): number {
  const quarter = 15 * 60_000;
  return START + Math.floor(((index * GOLDEN) % 1) * (SPAN_MS / quarter)) * quarter;
}
/** Runs are generated and loaded this many events at a time. */
const CHUNK_EVENTS = 100_000;

/** Run number `index` of a data set: the same run whatever the data set's size. */
export function datasetRun(index: number, prefix = "scale"): RunEvents {
  const runId = `${prefix}-${String(index).padStart(4, "0")}`;
  const { events } = generateEtfRun({
    runId,
    seed: index + 1,
    turns: 500 + ((index * 137) % 500),
    anomalies: true,
    agent: AGENTS[index % AGENTS.length],
    model: MODELS[index % MODELS.length],
    task: TASKS[index % TASKS.length],
    startTime: new Date(runStart(index)).toISOString(),
  });
  const arm = prefix === "scale" && index % 2 === 0 ? assignArm(SCALE_EXPERIMENT.id, runId, SCALE_EXPERIMENT.arms).name : null;
  return {
    runId,
    // Event ids are unique per project, not per run.
    events: events.map((e) =>
      arm !== null && e.type === "run.started"
        ? { ...e, id: `${runId}:${e.id}`, body: { ...e.body, experiment: { id: SCALE_EXPERIMENT.id, arm } } }
        : { ...e, id: `${runId}:${e.id}` },
    ),
  };
}

export interface LoadResult {
  runs: number;
  events: number;
  /** Wall-clock seconds inside `ingestBatch` (two senders), generation excluded. */
  ingestSeconds: number;
  /** The same for the raw INSERTs of the same rows, when a raw inserter was given. */
  rawSeconds?: number;
}

/** Whole runs until at least `size` events, through the ingest path (and the raw inserter, if any). */
export async function loadDataset(
  db: Database,
  projectId: string,
  size: number,
  options: { prefix?: string; raw?: RawInserter } = {},
): Promise<LoadResult> {
  const bar = progressBar(`loading ${countLabel(size)} events`);
  const result: LoadResult = { runs: 0, events: 0, ingestSeconds: 0, ...(options.raw ? { rawSeconds: 0 } : {}) };
  while (result.events < size) {
    const chunk: RunEvents[] = [];
    let chunkEvents = 0;
    while (chunkEvents < CHUNK_EVENTS && result.events + chunkEvents < size) {
      bar.update(result.events, size, `generating run ${result.runs + chunk.length}`);
      const run = datasetRun(result.runs + chunk.length, options.prefix);
      run.events.splice(size - result.events - chunkEvents);
      chunk.push(run);
      chunkEvents += run.events.length;
    }
    let sent = result.events;
    result.ingestSeconds += await ingestRuns(db, projectId, chunk, (n) => bar.update((sent += n), size, "ingestBatch"));
    if (options.raw) {
      const inserter = options.raw;
      result.rawSeconds! += await inserter.insert(chunk, (done) => bar.update(result.events + done, size, "raw INSERT"));
    }
    result.runs += chunk.length;
    result.events += chunkEvents;
  }
  bar.done(`${result.runs} runs, ${result.events.toLocaleString("en-US")} events`);
  return result;
}

/** The audit reads' key filter: one of the eight keys loadAuditLog spreads the entries over. */
export const AUDIT_SCALE_KEY = "scale-audit-key-3";
/** One day of loadAuditLog's 30 (as the list's `from`/`to`). */
export const AUDIT_DAY = "from=2026-10-20T00:00:00Z&to=2026-10-21T00:00:00Z";

/**
 * `count` audit entries for the project, spread evenly over the 30 days from 2026-10-06, every
 * action in turn, eight keys in turn: the audit reads' data, growing with the data set (one
 * entry per 100 events). Inserted in one statement, then the table's statistics gathered, as the
 * app does after its own bulk loads (refreshStatistics): without them the planner takes the whole
 * project's rows through the time index and sorts them (4 ms at 10k rows) instead of reading the
 * newest 51 backwards along the key (0.05 ms). Rows the app writes one at a time are analyzed by
 * autovacuum on PostgreSQL (docs/operations.md).
 */
export async function loadAuditLog(db: Database, projectId: string, count: number): Promise<void> {
  const actions = AUDIT_ACTION_NAMES.map((a) => `'${a}'`).join(",");
  await db.executeSql(
    `INSERT INTO "audit_log" ("project_id", "at", "action", "target_kind", "target_id", "target_name", "actor_kind", "actor_key_id", "actor_name", "address", "before", "after")
     SELECT $1, timestamptz '2026-10-06T00:00:00Z' + (i * interval '30 days' / $2::int), a, split_part(a, '.', 1), 'target-' || (i % 97), 'target ' || (i % 97),
            'key', 'scale-audit-key-' || (i % 8), 'bench key ' || (i % 8), '192.0.2.' || (i % 200), '{"name":"before"}'::jsonb, '{"name":"after"}'::jsonb
       FROM generate_series(0, $2::int - 1) AS i, LATERAL (SELECT (ARRAY[${actions}])[1 + i % ${AUDIT_ACTION_NAMES.length}] AS a) AS pick`,
    [projectId, count],
  );
  await db.executeSql(`ANALYZE "audit_log"`);
}

/** The days the review reads ask for: the generated runs' (scale-data.ts runStart), as the trends name them. */
export const REVIEW_WINDOW = "tz=UTC&from=2026-10-25&to=2026-11-07";

/**
 * Reviews of the settled runs' review queue (docs/reviews.md): a verdict on every third candidate in
 * the queue, in turn, over the 14 days of REVIEW_WINDOW, with the candidate's findings as the rules
 * said them; every fifth reviewed one also assigned. Reviews are people's work, so they grow with
 * the queue here only to give the reads their most: in use they grow with what a team reviews.
 */
export async function loadReviews(db: Database, projectId: string): Promise<number> {
  const inserted = await db.executeSql(
    `WITH q AS (
       SELECT rr."project_id", rr."run_pk", rr."review_key", rr."turn", rr."row"::jsonb AS j,
              row_number() OVER (ORDER BY rr."run_pk", rr."ordinal") AS i
         FROM "reviewer_rows" rr WHERE rr."project_id" = $1 AND rr."in_queue")
     INSERT INTO "reviews" ("project_id", "run_pk", "review_key", "turn", "verdict", "rule_findings", "dispatched", "reviewed_at",
                            "reviewer_name", "assignee_person_id", "assigned_at", "version")
     SELECT "project_id", "run_pk", "review_key", "turn", (ARRAY['justified','unnecessary','should_dispatch'])[1 + (i / 3) % 3],
            ARRAY(SELECT jsonb_array_elements_text(j -> 'findings')), jsonb_array_length(j -> 'dispatches') > 0,
            timestamptz '2026-10-25T00:00:00Z' + ((i * 7919) % 1209600) * interval '1 second', 'bench reviewer',
            CASE WHEN i % 15 = 0 THEN 'bench-person' END, CASE WHEN i % 15 = 0 THEN timestamptz '2026-10-25T00:00:00Z' END, 1
       FROM q WHERE i % 3 = 0
     RETURNING 1`,
    [projectId],
  );
  await db.executeSql(`ANALYZE "reviews"`);
  return inserted.rows.length;
}

/**
 * When the alert rules are evaluated (docs/alerts.md#windows): 01:52 UTC on 2026-10-26, while run 2 (in
 * every data set, started 2026-10-25 22:30) runs, so the hour's window (01:00–02:00) and the day's hold
 * its edits drops, Reviewer violations and FREE_REQUEST findings at every size; and a month later,
 * after the data, where every window is empty, so that each windowed rule clears.
 */
export const ALERT_NOW = new Date("2026-10-26T01:52:00.000Z");
export const ALERT_AFTER = new Date("2026-11-26T01:52:00.000Z");

/**
 * The alert rules made in each project (docs/alerts.md#rules): one of each kind, the windowed ones over an
 * hour and over a day (the day's scoped to run 2's agent, model or both, so they sum the agent and model
 * rollups), at thresholds of 0, so that each holds at ALERT_NOW at every size (a larger data set holds
 * the smaller one's runs, and more); the meter's holds while the data set's last run, cut short, is live.
 * Half have a webhook, whose deliveries the alerts list reads. The same rules at every size: what the
 * sizes compare is the data under them.
 */
export const ALERT_RULES: readonly TAlertRuleCreate[] = [
  {
    name: "edits drops, 1 hour",
    condition: { kind: "drop_rate", key: "edits", threshold: 0, minCandidates: 1, windowMinutes: 60 },
    webhook: true,
  },
  {
    name: "edits drops, 24 hours (agent)",
    condition: { kind: "drop_rate", key: "edits", threshold: 0, minCandidates: 1, windowMinutes: 1440 },
    scope: { agent: AGENTS[2] },
  },
  { name: "violations, 1 hour", condition: { kind: "reviewer_violations", threshold: 0, windowMinutes: 60 } },
  {
    name: "violations, 24 hours (model)",
    condition: { kind: "reviewer_violations", threshold: 0, windowMinutes: 1440 },
    scope: { model: MODELS[2] },
    webhook: true,
  },
  { name: "FREE_REQUEST, 1 hour", condition: { kind: "finding", code: "FREE_REQUEST", windowMinutes: 60 }, webhook: true },
  {
    name: "FREE_REQUEST, 24 hours (agent and model)",
    condition: { kind: "finding", code: "FREE_REQUEST", windowMinutes: 1440 },
    scope: { agent: AGENTS[2], model: MODELS[2] },
  },
  { name: "edits meter at stage 1", condition: { kind: "meter_stage", meter: "edits", stage: 1 }, webhook: true },
].map(({ webhook, ...rule }) =>
  ZAlertRuleCreate.parse({ ...rule, webhookUrl: webhook ? "https://hooks.example.com/cuescope-bench" : null }),
);

/** The project's alert rules (ALERT_RULES), made as an admin makes them. */
export async function createAlertRules(db: Database, caller: Caller): Promise<number> {
  for (const rule of ALERT_RULES) await createRule(db, caller, rule);
  return ALERT_RULES.length;
}
