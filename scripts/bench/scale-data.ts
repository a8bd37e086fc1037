/**
 * The scale bench's data: runs of the ETF research agent (anomalies on; several agents, models and
 * tasks; 500–999 turns, about 5,000 events each), generated and loaded a chunk at a time so a
 * million events never sit in memory at once. The last run is cut short (a run still going) so the
 * data set holds exactly the events asked for. Loading is timed through `ingestBatch`, and —
 * when asked — the same rows are written again by raw multi-row INSERTs into a copy of the
 * events table, chunk by chunk, so both run side by side on a table of the same size.
 */
import { generateEtfRun } from "@/lib/demo/etf-run";
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

const START = Date.parse("2026-11-01T00:00:00.000Z");
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
    startTime: new Date(START + index * 15 * 60_000).toISOString(),
  });
  // Event ids are unique per project, not per run.
  return { runId, events: events.map((e) => ({ ...e, id: `${runId}:${e.id}` })) };
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
