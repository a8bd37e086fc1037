import { checkEvent, show, type TEvent } from "@/lib/contracts";
import { sameJson } from "./canonical";

/** One problem in a JSON Lines file: its 1-based line (null for the file as a whole), path and reason. */
export interface LineProblem {
  line: number | null;
  path: string;
  message: string;
}

export interface EventLines {
  /** Valid events, exact repeats removed, in file order. */
  events: TEvent[];
  problems: LineProblem[];
}

const ROOT = "(root)";

/**
 * Reads a JSON Lines file holding one run (contract §6): blank lines are ignored; every problem is
 * reported — a line that is not JSON, an event that fails §4/§5, an id repeated with other
 * content, no run.started, a second run.started, a runId other than the run.started's.
 */
export function readEventLines(text: string): EventLines {
  const events: TEvent[] = [];
  const problems: LineProblem[] = [];
  const firstById = new Map<string, { line: number; raw: unknown }>();
  const runIds: { line: number; runId: string }[] = [];
  let started: { line: number; id: unknown; runId: unknown } | undefined;

  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = index + 1;
    const source = lines[index].trim();
    if (source === "") continue;
    let raw: unknown;
    try {
      raw = JSON.parse(source);
    } catch (error) {
      problems.push({ line, path: ROOT, message: `not valid JSON (${(error as Error).message})` });
      continue;
    }
    const envelope = (typeof raw === "object" && raw !== null && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
    // The same contract as the ingestion service (storable, then contract §4/§5), checked first: what
    // follows may recurse into the value only once its depth is known to be bounded.
    const checked = checkEvent(raw);
    if (!checked.ok && checked.problems.some((p) => p.message.startsWith("nested too deeply"))) {
      for (const problem of checked.problems) problems.push({ line, path: problem.path || ROOT, message: problem.message });
      continue;
    }

    if (typeof envelope.id === "string") {
      const first = firstById.get(envelope.id);
      if (first) {
        // Contract §4: the same JSON value (key order aside) is a no-op; any other content is a conflict.
        if (!sameJson(first.raw, raw)) {
          problems.push({ line, path: "id", message: `${show(envelope.id)} was already used on line ${first.line} with other content` });
        }
        continue; // the same id with the same content is a no-op
      }
      firstById.set(envelope.id, { line, raw });
    }

    if (envelope.type === "run.started") {
      if (started) {
        problems.push({
          line,
          path: "type",
          message: `a second run.started (the run already started on line ${started.line}); a file holds one run`,
        });
      } else started = { line, id: envelope.id, runId: envelope.runId };
    }
    if (typeof envelope.runId === "string") runIds.push({ line, runId: envelope.runId });

    if (checked.ok) events.push(checked.event);
    else for (const problem of checked.problems) problems.push({ line, path: problem.path || ROOT, message: problem.message });
  }

  if (!started) {
    problems.push({ line: null, path: "type", message: "no run.started event: a run's file must start it with one" });
  } else if (typeof started.runId === "string") {
    for (const { line, runId } of runIds) {
      if (runId !== started.runId) {
        problems.push({
          line,
          path: "runId",
          message: `${show(runId)} differs from the run.started's runId ${show(started.runId)} (line ${started.line})`,
        });
      }
    }
  }

  problems.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity));
  return { events, problems };
}

/** `line N: PATH: reason`, or `file: PATH: reason` for the file as a whole. */
export function formatLineProblem(problem: LineProblem): string {
  return `${problem.line === null ? "file" : `line ${problem.line}`}: ${problem.path}: ${problem.message}`;
}
