import type { z } from "zod";
import { parseInstant, ZEvent, ZPolicy, type TEvent, type TPolicy, type TRunDecisions } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { EtfFacts } from "./etf-facts";
import { fillAgentLists } from "./etf-lists";
import { addContextParts } from "./etf-parts";
import type { AnomalyManifest, TurnRecord } from "./etf-model";
import { DEFAULT_RATES, DEFAULT_TASK, defaultEtfPolicy, type EtfRunOptions } from "./etf-options";
import { expectedComparisons, inFindingOrder } from "./etf-oracle";
import { AnomalyPlan, requestedCodes } from "./etf-plan";
import { streamOf } from "./prng";

export { defaultEtfPolicy, DEFAULT_RATES, type EtfRunOptions, type EtfRates, type InjectableCode } from "./etf-options";
export type { AnomalyManifest, ExpectedFinding, InjectedAnomaly } from "./etf-model";

/** An event as an agent sends it (JSON, before zod fills defaults). */
export type TRawEvent = z.input<typeof ZEvent>;

/** The finding codes that compare the rebuild with the agent's own lists (contract §7). */
export { AGENT_COMPARISON_CODES } from "@/lib/contracts";

export interface EtfRun {
  runId: string;
  /** Raw events in emission order (ids `e-000001`, ... and ts ascending). */
  events: TRawEvent[];
  policy: TPolicy;
  manifest: AnomalyManifest;
  /** The rebuild of the facts alone, whose included reminders the agent copied into its lists. */
  coordinator: TRunDecisions;
}

const DEFAULT_START = "2026-11-29T10:00:00.000Z";

/**
 * A deterministic, realistic run of the seed's ETF research agent (comparing fund holdings and
 * fees) as raw telemetry events (contract §4). The facts are generated first without the agent's
 * reminder lists; the core's `rebuild` over them plays the agent's coordinator, and every turn's
 * submission list is copied from its included reminders. With `anomalies`, deliberate deviations
 * are injected and listed in `manifest` with their turns.
 */
export function generateEtfRun(options: EtfRunOptions = {}): EtfRun {
  const turns = options.turns ?? 200;
  if (!Number.isInteger(turns) || turns < 1) throw new Error(`turns must be an integer >= 1, got ${turns}`);
  const seed = options.seed ?? 1;
  const runId = options.runId ?? `etf-${seed}-${turns}`;
  const policyInput = options.policy ?? defaultEtfPolicy(turns);
  const policy = ZPolicy.parse(policyInput);
  const rates = { ...DEFAULT_RATES, ...options.rates };
  const start = parseInstant(options.startTime ?? DEFAULT_START);
  if (!start) throw new Error(`startTime must be an RFC 3339 date-time, got ${options.startTime}`);
  const progress = options.onProgress;

  const plan = new AnomalyPlan(requestedCodes(options.anomalies), options.anomalyRepeats ?? 1, turns, streamOf(seed, "plan"));
  const facts = new EtfFacts({
    turns,
    policy,
    rates,
    blocks: options.blocks ?? 5,
    plan,
    rng: streamOf(seed, "facts"),
    onProgress: progress && ((done, total) => progress("facts", done, total)),
  }).run();

  const started = {
    task: options.task ?? DEFAULT_TASK,
    agent: options.agent ?? "etf-research-agent",
    model: options.model ?? "research-model-2026-10",
    policy: policyInput,
    ...(options.copy ? { copy: options.copy } : {}),
  };
  const assemble = () => assembleEvents(runId, start.ms, started, facts.records, facts.runEnded);

  progress?.("coordinator", 0, 1);
  const coordinator = rebuild(assemble().map((event) => ZEvent.parse(event) as TEvent));
  progress?.("coordinator", 1, 1);

  fillAgentLists({ records: facts.records, decisions: coordinator, policy, plan, rates, rng: streamOf(seed, "lists") });
  if (options.contextParts) addContextParts(facts.records, coordinator, streamOf(seed, "parts"));
  const expectedFindings = inFindingOrder([...facts.eventFindings, ...expectedComparisons(facts.records, coordinator, policy)]);
  const events = assemble();
  progress?.("events", events.length, events.length);

  const manifest: AnomalyManifest = {
    requested: [...plan.requested],
    repeats: plan.repeats,
    injected: inFindingOrder(plan.injected),
    notInjected: plan.notInjected,
    expectedFindings,
  };
  return { runId, events, policy, manifest, coordinator };
}

/** Gives every draft its id (a zero-padded counter in emission order) and an increasing ts. */
function assembleEvents(
  runId: string,
  startMs: number,
  started: Record<string, unknown>,
  records: readonly TurnRecord[],
  runEnded: Record<string, unknown>,
): TRawEvent[] {
  const total = 2 + records.reduce((n, r) => n + r.head.length + (r.marked ? 1 : 0) + r.tail.length, 0);
  const width = Math.max(6, String(total).length);
  const events: TRawEvent[] = [];
  const emit = (type: string, ms: number, body: unknown, turn?: number) => {
    const id = `e-${String(events.length + 1).padStart(width, "0")}`;
    const ts = new Date(ms).toISOString();
    events.push((turn === undefined ? { id, runId, type, ts, body } : { id, runId, type, ts, turn, body }) as TRawEvent);
  };
  emit("run.started", startMs, started);
  let end = startMs;
  for (const rec of records) {
    const drafts = [
      ...rec.head,
      ...(rec.marked ? [{ type: "reminders.marked" as const, body: { reminders: rec.marked } }] : []),
      ...rec.tail,
    ];
    const step = rec.durationMs / (drafts.length + 1);
    drafts.forEach((draft, i) => emit(draft.type, startMs + rec.startMs + Math.floor((i + 1) * step), draft.body, rec.turn));
    end = startMs + rec.startMs + rec.durationMs;
  }
  emit("run.ended", end + 800, runEnded);
  return events;
}

/** JSON Lines: one event per line, newline-terminated. */
export function toJsonl(events: readonly unknown[]): string {
  let out = "";
  for (const event of events) out += JSON.stringify(event) + "\n";
  return out;
}
