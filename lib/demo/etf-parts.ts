import type { TContextParts, TRunDecisions } from "@/lib/contracts";
import type { TurnRecord } from "./etf-model";
import type { Rng } from "./prng";

/**
 * Contract §11 for the demo: what the ETF agent's context assembler counts in each final request.
 * The system prompt and tool definitions are fixed for the run; retrieved fact sheets and holdings
 * tables vary by turn; earlier turns' delivered reminders stay in the history until a compaction
 * is adopted (the compacted history summarises them away); the rest is conversation history, with
 * a little the assembler does not attribute on some turns. Every request.final draft gets its
 * parts, summing to at most its requiredBytes. Uses its own random stream, so the run's facts and
 * decisions are those of the same seed without parts.
 */
export function addContextParts(records: readonly TurnRecord[], decisions: TRunDecisions, rng: Rng): void {
  const system = rng.int(2_800, 3_600);
  const tools = rng.int(7_000, 9_500);
  const delivered = new Map(
    decisions.turns.map((t) => [t.turn, t.reminders.filter((r) => r.status === "delivered").reduce((n, r) => n + r.bytes, 0)]),
  );
  let carried = 0;
  for (const rec of records) {
    for (const draft of rec.head) {
      if (draft.type === "context.compaction" && draft.body.outcome === "adopted") carried = Math.floor(carried * 0.1);
      if (draft.type !== "request.final") continue;
      draft.body.contextParts = partsOf(draft.body.requiredBytes as number, system, tools, carried, rng);
    }
    carried += delivered.get(rec.turn) ?? 0;
  }
}

function partsOf(required: number, system: number, tools: number, carried: number, rng: Rng): TContextParts {
  let left = required;
  const take = (bytes: number) => {
    const taken = Math.max(0, Math.min(left, Math.floor(bytes)));
    left -= taken;
    return taken;
  };
  const parts: TContextParts = { system: take(system), tools: take(tools), reminders: take(carried) };
  parts.retrieved = take(required * rng.between(0.04, 0.22));
  parts.other = take(required * rng.between(0.005, 0.015));
  const unattributed = rng.chance(0.1) ? Math.floor(left * rng.between(0.01, 0.03)) : 0;
  parts.history = Math.max(0, left - unattributed);
  return {
    system: parts.system,
    tools: parts.tools,
    history: parts.history,
    retrieved: parts.retrieved,
    reminders: parts.reminders,
    other: parts.other,
  };
}
