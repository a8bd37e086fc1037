import { demoRuns } from "@/lib/demo/demo-set";
import type { IngestSink } from "@/lib/client/ingest-sink";
import { progressBar } from "./progress";

/** Generates the demo runs and sends them through a sink in batches of 500, with progress. */
export async function loadDemo(
  sink: IngestSink,
  now = new Date().toISOString(),
): Promise<{ runs: number; events: number; errors: number }> {
  const generating = progressBar("generating demo runs");
  const runs = demoRuns(now, (_, index, total) => generating.update(index, total));
  generating.done();
  const total = runs.reduce((sum, run) => sum + run.events.length, 0);
  const bar = progressBar("loading demo events");
  let sent = 0;
  let errors = 0;
  for (const run of runs) {
    for (let start = 0; start < run.events.length; start += 500) {
      const answer = await sink(run.events.slice(start, start + 500));
      errors += answer.summary.error;
      sent += answer.results.length;
      bar.update(sent, total, run.runId);
    }
  }
  bar.done(`${runs.length} runs, ${total.toLocaleString("en-US")} events`);
  return { runs: runs.length, events: total, errors };
}
