import type { TBlockMeter, TPolicy, TReminderDecision, TReminderKey, TTemplates, TTurnDecision } from "@/lib/contracts";
import {
  contextValues,
  editsValues,
  fillTemplate,
  fitDecisions,
  fitsIn,
  freeBytesBefore,
  ReminderRenderer,
  reminderCost,
  requestsValues,
  reviewCheckpoint,
  reviewValues,
  templateName,
  timeValues,
  type Rendered,
  type TemplateValues,
} from "@/lib/core";
import type { CopyDraft } from "./templates";

/** The facts one template of a key is rendered from on a turn, or why there are none. */
type Facts =
  { ok: true; values: TemplateValues; stage: number; exhausted: boolean; subject: string | null } | { ok: false; reason: string };

/** One template rendered on a recorded turn: its text, its cost and whether it would fit there. */
export interface TemplatePreview {
  key: TReminderKey;
  name: string;
  /** Why this turn cannot show the template (the meter is off or has no reading yet); null when it can. */
  unavailable: string | null;
  /** The block the `edits` template was rendered for. */
  subject: string | null;
  text: string;
  /** UTF-8 bytes of the text plus its newline (R8). */
  bytes: number;
  /** The meter's stage (for review, the checkpoint) on this turn. */
  stage: number;
  /** Whether lookup picks this template on this turn (the meter is at stage >= 1 and this is its template). */
  inUse: boolean;
  /** Free bytes of the turn before fitting (capacity − required); null without a byte limit. */
  freeBytes: number | null;
  /** Whether the reminder alone fits in the turn's free bytes. */
  fits: boolean;
}

/**
 * Renders one template of a draft on a recorded turn with the exact placeholder values, filling,
 * cost, fit test and template lookup the rebuild uses (all from lib/core).
 */
export function previewTemplate(
  key: TReminderKey,
  name: string,
  templates: Readonly<TTemplates>,
  turn: TTurnDecision,
  policy: TPolicy | null,
): TemplatePreview {
  const freeBytes = turnFreeBytes(turn);
  const facts = factsFor(key, name, turn, policy);
  if (!facts.ok) {
    return { key, name, unavailable: facts.reason, subject: null, text: "", bytes: 0, stage: 0, inUse: false, freeBytes, fits: false };
  }
  const text = fillTemplate(templates[name] ?? "", facts.values);
  const bytes = reminderCost(text);
  const inUse = facts.stage >= 1 && templateName(templates, facts.stage, facts.exhausted) === name;
  return {
    key,
    name,
    unavailable: null,
    subject: facts.subject,
    text,
    bytes,
    stage: facts.stage,
    inUse,
    freeBytes,
    fits: fitsIn(bytes, freeBytesBefore(turn.requiredBytes, turn.capacityBytes)),
  };
}

/** Free bytes of a turn before fitting (R8): capacity − required bytes (null: the policy has no byte limit). */
export function turnFreeBytes(turn: TTurnDecision): number | null {
  return turn.capacityBytes === null ? null : freeBytesBefore(turn.requiredBytes, turn.capacityBytes);
}

export interface RefitReminder {
  key: TReminderKey;
  subject: string | null;
  stage: number;
  baseline: TReminderDecision;
  text: string;
  bytes: number;
  included: boolean;
  /** Free bytes left when a dropped reminder was considered. */
  freeBytes?: number;
}

export interface RefitTurn {
  freeBytes: number | null;
  reminders: RefitReminder[];
  baselineIncluded: number;
  included: number;
  baselineBytes: number;
  bytes: number;
}

/**
 * The turn's own candidates rendered with a draft copy and fitted again (R8 first fit) into the
 * turn's free bytes, through the rebuild's own code: its renderer (template lookup, then filling)
 * over the draft, and its first fit. Exact for this turn given the same ledger coming in; later
 * turns can differ because the ledger follows what was delivered — the what-if replay answers that
 * across a run.
 */
export function refitTurn(turn: TTurnDecision, draft: CopyDraft): RefitTurn {
  const renderer = new ReminderRenderer(draft);
  const rendered = turn.reminders.map((reminder) => renderAgain(renderer, reminder, turn));
  // A draft is never sent: "pending" stands for any status an included reminder would take.
  const { reminders: fitted } = fitDecisions(rendered, freeBytesBefore(turn.requiredBytes, turn.capacityBytes), "pending");
  const reminders = fitted.map((f, i): RefitReminder => ({
    key: f.key,
    subject: f.subject,
    stage: f.stage,
    baseline: turn.reminders[i],
    text: f.text,
    bytes: f.bytes,
    included: f.status !== "dropped",
    ...(f.status === "dropped" ? { freeBytes: f.freeBytes } : {}),
  }));
  const baselineIncluded = turn.reminders.filter((r) => r.status !== "dropped");
  return {
    freeBytes: turnFreeBytes(turn),
    reminders,
    baselineIncluded: baselineIncluded.length,
    included: reminders.filter((r) => r.included).length,
    baselineBytes: baselineIncluded.reduce((sum, r) => sum + r.bytes, 0),
    bytes: reminders.filter((r) => r.included).reduce((sum, r) => sum + r.bytes, 0),
  };
}

/** A recorded reminder rendered again by the rebuild's renderer, from the meters recorded on its turn. */
function renderAgain(renderer: ReminderRenderer, reminder: TReminderDecision, turn: TTurnDecision): Rendered {
  const block = reminder.key === "edits" ? blockOf(turn, reminder.subject) : undefined;
  if (block) return renderer.blockState(block.blockId, reminder.stage, block.used, block.limit);
  return renderer.reminder(
    reminder.key,
    reminder.subject,
    reminder.kind,
    reminder.stage,
    valuesOn(reminder.key, reminder.stage, turn) ?? {},
  );
}

/**
 * The placeholder values of a `key` reminder at `stage` on a recorded turn, from the meters the
 * rebuild recorded there, by the rebuild's own functions; null when the turn has no such reading.
 */
function valuesOn(key: TReminderKey, stage: number, turn: TTurnDecision, block?: TBlockMeter): TemplateValues | null {
  const { meters } = turn;
  switch (key) {
    case "requests":
      return meters.requests ? requestsValues(meters.requests.used, meters.requests.limit, meters.requests.reserve, stage) : null;
    case "time":
      return meters.time ? timeValues(meters.time.elapsedMs, meters.time.limitMs, stage) : null;
    case "context":
      return meters.context ? contextValues(meters.context.requiredBytes, meters.context.capacityBytes, stage) : null;
    case "edits":
      return block ? editsValues(block.blockId, block.used, block.limit, stage) : null;
    case "review":
      return reviewValues(stage, turn.turn);
  }
}

function blockOf(turn: TTurnDecision, blockId: string | null): TBlockMeter | undefined {
  return turn.meters.edits?.find((b) => b.blockId === blockId);
}

/** The facts of a `key` reminder at `stage` on a recorded turn (for `edits`, of `block`). */
function factsAt(key: TReminderKey, stage: number, turn: TTurnDecision, block?: TBlockMeter): Facts {
  return {
    ok: true,
    values: valuesOn(key, stage, turn, block) ?? {},
    stage,
    exhausted: block !== undefined && block.used >= block.limit,
    subject: block?.blockId ?? null,
  };
}

function factsFor(key: TReminderKey, name: string, turn: TTurnDecision, policy: TPolicy | null): Facts {
  const { meters } = turn;
  switch (key) {
    case "requests":
      if (!meters.requests)
        return {
          ok: false,
          reason: policy && !policy.requests ? "the run's policy has no requests meter" : "no requests reading yet on this turn",
        };
      return factsAt(key, meters.requests.stage, turn);
    case "time":
      if (!meters.time)
        return { ok: false, reason: policy && !policy.time ? "the run's policy has no time meter" : "no time reading yet on this turn" };
      return factsAt(key, meters.time.stage, turn);
    case "context":
      if (!meters.context) return { ok: false, reason: "the run's policy has no context meter" };
      return factsAt(key, meters.context.stage, turn);
    case "edits": {
      const block = blockFor(name, meters.edits ?? []);
      if (!block)
        return {
          ok: false,
          reason: policy && !policy.edits ? "the run's policy has no edits meter" : "no block has been edited yet on this turn",
        };
      return factsAt(key, block.stage, turn, block);
    }
    case "review": {
      if (policy && !policy.review) return { ok: false, reason: "the run's policy has no review checkpoints" };
      // The checkpoint k the turn recorded (its suggestion, or its Reviewer candidate), else R7 again —
      // which needs the clock reading when `afterMs` is set, and the decision carries it only with a time meter.
      let k = turn.reminders.find((r) => r.key === "review")?.stage ?? turn.reviewer?.candidate.checkpoint;
      if (k === undefined) {
        if (!policy) return { ok: false, reason: "the run's policy is not loaded yet" };
        if (policy.review?.afterMs !== undefined && !meters.time) {
          return {
            ok: false,
            reason: "this turn's checkpoint depends on the clock reading, which its decision does not carry (no time meter)",
          };
        }
        k = reviewCheckpoint(policy.review, turn.turn, meters.time?.elapsedMs);
      }
      return factsAt(key, k, turn);
    }
  }
}

/**
 * The block an `edits` template is best shown for: an exhausted block for `exhausted`, a block at
 * that stage for a stage template, else the first block that has a state reminder, else the first.
 */
function blockFor(name: string, blocks: readonly TBlockMeter[]): TBlockMeter | undefined {
  const exhausted = (b: TBlockMeter) => b.used >= b.limit;
  if (name === "exhausted") return blocks.find(exhausted) ?? blocks[0];
  if (/^\d+$/.test(name))
    return blocks.find((b) => b.stage === Number(name) && !exhausted(b)) ?? blocks.find((b) => b.stage === Number(name)) ?? blocks[0];
  return blocks.find((b) => b.stage >= 1 && !exhausted(b)) ?? blocks.find((b) => b.stage >= 1) ?? blocks[0];
}
