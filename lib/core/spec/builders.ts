/**
 * Small builders for the contract conformance suite (lib/core/spec). They produce raw telemetry events
 * (contract §4) with ids zero-padded in emission order and ISO timestamps one second apart, and return
 * them validated through `ZEvent.parse`, so the tests read like the contract (docs/contract).
 *
 *   run({ policy: { requests: REQ } })
 *     .turn(10, (t) => t.requests(28).final(9962).block("b1", 2).ok([rem("requests", 2)]))
 *     .events()
 */
import {
  REMINDER_KEYS,
  ZEvent,
  ZPolicy,
  type TCopy,
  type TEvent,
  type TPolicy,
  type TPolicyInput,
  type TReminderDecision,
  type TReminderKey,
  type TRunDecisions,
  type TTurnDecision,
} from "@/lib/contracts";

export const BASE_MS = Date.parse("2026-11-29T10:00:00.000Z");

/** An ISO timestamp `seconds` after the builders' base instant. */
export function at(seconds: number): string {
  return new Date(BASE_MS + seconds * 1000).toISOString();
}

/** A reminder as the agent records it: `rem("edits", 1, "b1")`. Subject omitted = absent. */
export interface Rem {
  key: TReminderKey;
  subject?: string | null;
  stage: number;
}
export function rem(key: TReminderKey, stage: number, subject?: string | null): Rem {
  return subject === undefined ? { key, stage } : { key, subject, stage };
}

/** Overrides for one event's envelope (to test run order by ts / id). */
export interface Meta {
  ts?: string;
  id?: string;
}

export type ActionKind = "tool_call" | "edit_block" | "append_block" | "review_objectives" | "check_evidence" | "finalize" | "other";

export interface SubmitOptions extends Meta {
  countsAgainstBudget?: boolean;
  purpose?: "turn" | "retry" | "reminder_resend";
}

type Add = (type: string, body: Record<string, unknown>, meta?: Meta) => void;

/** The events of one turn, in emission order. Every method returns the builder. */
export class TurnBuilder {
  constructor(private readonly add: Add) {}

  requests(used: number, meta?: Meta): this {
    this.add("meter.requests", { used }, meta);
    return this;
  }
  time(elapsedMs: number, meta?: Meta): this {
    this.add("meter.time", { elapsedMs }, meta);
    return this;
  }
  block(blockId: string, used: number, limit?: number, meta?: Meta): this {
    this.add("block.edited", limit === undefined ? { blockId, used } : { blockId, used, limit }, meta);
    return this;
  }
  compaction(originalBytes: number, candidateBytes: number, outcome: "adopted" | "rolled_back", meta?: Meta): this {
    this.add("context.compaction", { originalBytes, candidateBytes, outcome }, meta);
    return this;
  }
  final(requiredBytes: number, meta?: Meta): this {
    this.add("request.final", { requiredBytes }, meta);
    return this;
  }
  /** `request.final` with the optional fields of contract §11 (contextParts, provider tokens). */
  finalWith(body: { requiredBytes: number } & Record<string, unknown>, meta?: Meta): this {
    this.add("request.final", body, meta);
    return this;
  }
  /** `request.submitted`; `reminders` undefined = no list recorded. */
  submitted(outcome: "ok" | "failed" | "uncertain", reminders?: Rem[], options: SubmitOptions = {}): this {
    const { ts, id, ...rest } = options;
    const body: Record<string, unknown> = { outcome, ...rest };
    if (reminders !== undefined) body.reminders = reminders;
    this.add("request.submitted", body, { ts, id });
    return this;
  }
  ok(reminders?: Rem[], options?: SubmitOptions): this {
    return this.submitted("ok", reminders, options);
  }
  marked(reminders: Rem[], meta?: Meta): this {
    this.add("reminders.marked", { reminders }, meta);
    return this;
  }
  candidate(candidateId: string, checkpoint?: number, meta?: Meta): this {
    this.add("reviewer.candidate", checkpoint === undefined ? { candidateId } : { candidateId, checkpoint }, meta);
    return this;
  }
  admission(candidateId: string, granted: boolean, reasons: string[] = [], meta?: Meta): this {
    this.add("reviewer.admission", { candidateId, granted, reasons }, meta);
    return this;
  }
  dispatched(candidateId: string, dispatchId: string, meta?: Meta): this {
    this.add("reviewer.dispatched", { candidateId, dispatchId }, meta);
    return this;
  }
  completed(dispatchId: string, meta?: Meta): this {
    this.add("reviewer.completed", { dispatchId }, meta);
    return this;
  }
  cancelled(candidateId: string, reason: string, meta?: Meta): this {
    this.add("reviewer.cancelled", { candidateId, reason }, meta);
    return this;
  }
  notified(channel: string, message: string, meta?: Meta): this {
    this.add("user.notified", { channel, message }, meta);
    return this;
  }
  action(kind: ActionKind, blockId?: string, meta?: Meta): this {
    this.add("model.action", blockId === undefined ? { kind } : { kind, blockId }, meta);
    return this;
  }
}

export interface RunOptions {
  runId?: string;
  policy?: TPolicyInput;
  copy?: TCopy;
}

type RawEvent = Record<string, unknown> & { id: string; type: string };

/** A run: `run.started` first (emitted at construction), then turns, then optionally `run.ended`. */
export class RunBuilder {
  private readonly raws: RawEvent[] = [];
  private counter = 0;
  readonly runId: string;

  constructor(options: RunOptions = {}) {
    this.runId = options.runId ?? "run-1";
    const body: Record<string, unknown> = { task: "compare ETF holdings and fees", policy: options.policy ?? {} };
    if (options.copy !== undefined) body.copy = options.copy;
    this.push("run.started", body, undefined);
  }

  private push(type: string, body: Record<string, unknown>, turn: number | undefined, meta: Meta = {}): void {
    this.counter += 1;
    const raw: RawEvent = {
      id: meta.id ?? `e-${String(this.counter).padStart(6, "0")}`,
      runId: this.runId,
      type,
      ts: meta.ts ?? at(this.counter),
      body,
    };
    if (turn !== undefined) raw.turn = turn;
    this.raws.push(raw);
  }

  turn(turn: number, fill: (t: TurnBuilder) => unknown): this {
    fill(new TurnBuilder((type, body, meta) => this.push(type, body, turn, meta)));
    return this;
  }

  ended(status: "completed" | "failed" | "stopped" = "completed", reason?: string, meta?: Meta): this {
    this.push("run.ended", reason === undefined ? { status } : { status, reason }, undefined, meta);
    return this;
  }

  /** Raw JSON events (deep copies), in emission order. */
  raw(): RawEvent[] {
    return JSON.parse(JSON.stringify(this.raws)) as RawEvent[];
  }

  /** The events validated through `ZEvent.parse`, in emission order. */
  events(): TEvent[] {
    return this.raw().map((e) => ZEvent.parse(e));
  }
}

export function run(options: RunOptions = {}): RunBuilder {
  return new RunBuilder(options);
}

/** A validated policy (defaults filled), for `options.policy`. */
export function policy(input: TPolicyInput): TPolicy {
  return ZPolicy.parse(input);
}

// ---------------------------------------------------------------------------------------------
// Policy sections used throughout the suite (contract §5 / §9 shapes).

export const REQ = { limit: 40, deliveryReserve: 4, stages: [0.5, 0.75, 0.9] };
export const TIME = { limitMs: 1_800_000, stages: [0.5, 0.75, 0.9] };
export const CTX = { capacityBytes: 10_000, stages: [0.7, 0.85, 0.95] };
export const EDITS = { perBlockLimit: 4, stages: [0.5, 1] };

/** The copy of contract §9. */
export const TEACH_COPY: TCopy = {
  requests: { "*": "R{stage}: {used}/{usable} requests" },
  context: { "*": "C{stage}: {requiredBytes}/{capacityBytes} bytes" },
  edits: { "*": "E{stage} {blockId}: {used}/{limit} edits" },
  review: { "*": "Review checkpoint {checkpoint}" },
};

/** The policy of contract §9: requests, context and edits meters, review every 10 turns, Reviewer admission at 8 requests left. */
export const TEACH_POLICY = {
  requests: REQ,
  context: CTX,
  edits: EDITS,
  review: { everyTurns: 10 },
  reviewer: { autoReviewAllowed: true, minRequestsLeft: 8 },
};

/**
 * Contract §9's teaching scene up to its turn 10 (38 free bytes: the requests and edits notices fit,
 * the context notice and the review suggestion do not). Callers add turn 11 as their scene records it.
 */
export function teachingScene(): RunBuilder {
  return run({ runId: "teach", policy: TEACH_POLICY, copy: TEACH_COPY })
    .turn(9, (t) => t.requests(17).final(5000).ok([]))
    .turn(10, (t) =>
      t
        .requests(28)
        .final(9962)
        .block("b1", 2)
        .ok([rem("requests", 2), rem("edits", 1, "b1")]),
    );
}

// ---------------------------------------------------------------------------------------------
// Reading results.

/** The output as JSON would carry it (undefined properties disappear, as on the wire). */
export function json<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

export function turnOf(decisions: TRunDecisions, turn: number): TTurnDecision {
  const found = decisions.turns.find((t) => t.turn === turn);
  if (!found) throw new Error(`turn ${turn} is not in RunDecisions.turns (${decisions.turns.map((t) => t.turn).join(", ")})`);
  return found;
}

/** One reminder in short form: `requests s2 delivered`, `edits/b1 s1 dropped`. */
export function short(r: TReminderDecision): string {
  return `${r.key}${r.subject === null ? "" : `/${r.subject}`} s${r.stage} ${r.status}`;
}

export function shortReminders(decisions: TRunDecisions, turn: number): string[] {
  return turnOf(decisions, turn).reminders.map(short);
}

/** Every rebuilt turn → its reminders in short form. */
export function reminderTable(decisions: TRunDecisions): Record<number, string[]> {
  return Object.fromEntries(decisions.turns.map((t) => [t.turn, t.reminders.map(short)]));
}

/** The turns (null = run-level) of every finding with that code, in output order. */
export function findingTurns(decisions: TRunDecisions, code: string): (number | null)[] {
  return decisions.findings.filter((f) => f.code === code).map((f) => f.turn);
}

/** A deterministic shuffle (mulberry32), for run order independence. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  let a = seed >>> 0;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export const KEY_ORDER: readonly TReminderKey[] = REMINDER_KEYS;

/** UTF-8 byte length, computed independently of the core. */
export function utf8(text: string): number {
  return new TextEncoder().encode(text).length;
}
