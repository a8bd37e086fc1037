import type { TIngestResult } from "@/lib/contracts";
import type { IngestSink } from "./ingest-sink";

export interface LineOutcome {
  line: number;
  id: string | null;
  status: TIngestResult["status"];
  path?: string;
  message?: string;
}

export interface ImportTally {
  events: number;
  created: number;
  duplicate: number;
  errors: LineOutcome[];
}

/**
 * Sends a JSON Lines text through a sink in batches, keeping each event's line number so every
 * error can be reported as `line N: path: reason`. Lines that are not JSON are errors too; they
 * never stop the valid lines from being stored.
 */
export async function importLines(
  text: string,
  sink: IngestSink,
  options: { batchSize?: number; onProgress?: (done: number, total: number, tally: ImportTally) => void } = {},
): Promise<ImportTally> {
  const batchSize = options.batchSize ?? 500;
  const tally: ImportTally = { events: 0, created: 0, duplicate: 0, errors: [] };
  const parsed: { line: number; value: unknown }[] = [];
  text.split("\n").forEach((source, index) => {
    if (source.trim() === "") return;
    try {
      parsed.push({ line: index + 1, value: JSON.parse(source) });
    } catch (error) {
      tally.errors.push({
        line: index + 1,
        id: null,
        status: "error",
        path: "(root)",
        message: `not valid JSON (${(error as Error).message})`,
      });
    }
  });
  tally.events = parsed.length + tally.errors.length;

  for (let start = 0; start < parsed.length; start += batchSize) {
    const slice = parsed.slice(start, start + batchSize);
    const answer = await sink(slice.map((p) => p.value));
    answer.results.forEach((result, i) => {
      if (result.status === "created") tally.created++;
      else if (result.status === "duplicate") tally.duplicate++;
      else
        tally.errors.push({
          line: slice[i].line,
          id: result.id,
          status: "error",
          path: result.error?.path,
          message: result.error?.message,
        });
    });
    options.onProgress?.(Math.min(start + batchSize, parsed.length), parsed.length, tally);
  }
  tally.errors.sort((a, b) => a.line - b.line);
  return tally;
}
