import type { TBlockMeter, TPolicy, TReminderDecision, TReminderKey, TTemplates, TTurnDecision } from "@/lib/contracts";
import {
  contextValues,
  editsValues,
  fillTemplate,
  fitReminders,
  reminderCost,
  requestsValues,
  reviewCheckpoint,
  reviewValues,
  timeValues,
  type Rendered,
  type TemplateValues,
} from "@/lib/core";
import { pickedTemplateName, type CopyDraft } from "./templates";

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

/** Renders one template of a draft on a recorded turn with the exact placeholder values the rebuild uses. */
export function previewTemplate(
  key: TReminderKey,
  name: string,
  templates: Readonly<TTemplates>,
  turn: TTurnDecision,
  policy: TPolicy | null,
): TemplatePreview {
  const freeBytes = turnFreeBytes(turn);
  const facts = factsFor(key, name, turn, policy);
  const template = templates[name] ?? "";
  if (!facts.ok) {
    return { key, name, unavailable: facts.reason, subject: null, text: "", bytes: 0, stage: 0, inUse: false, freeBytes, fits: false };
  }
  const text = fillTemplate(template, facts.values);
  const bytes = reminderCost(text);
  const inUse = facts.stage >= 1 && pickedTemplateName(templates, facts.stage, facts.exhausted) === name;
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
    fits: freeBytes === null || bytes <= freeBytes,
  };
}

/** Free bytes of a turn before fitting: capacity − required bytes (null: the policy has no byte limit). */
export function turnFreeBytes(turn: TTurnDecision): number | null {
  return turn.capacityBytes === null ? null : turn.capacityBytes - turn.requiredBytes;
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
 * turn's free bytes. Exact for this turn given the same ledger coming in; later turns can differ
 * because the ledger follows what was delivered — the what-if replay answers that across a run.
 */
export function refitTurn(turn: TTurnDecision, draft: CopyDraft): RefitTurn {
  const free = turnFreeBytes(turn);
  const rendered: Rendered[] = turn.reminders.map((reminder) => {
    const values = reminderValues(reminder, turn);
    const block = reminder.key === "edits" ? blockOf(turn, reminder.subject) : undefined;
    const exhausted = block !== undefined && block.used >= block.limit;
    const templates = draft[reminder.key];
    const text = fillTemplate(templates[pickedTemplateName(templates, reminder.stage, exhausted)] ?? "", values);
    return { key: reminder.key, subject: reminder.subject, kind: reminder.kind, stage: reminder.stage, text, bytes: reminderCost(text) };
  });
  const { fitted } = fitReminders(rendered, free ?? Number.POSITIVE_INFINITY);
  const reminders = fitted.map((f, i): RefitReminder => ({
    key: f.key,
    subject: f.subject,
    stage: f.stage,
    baseline: turn.reminders[i],
    text: f.text,
    bytes: f.bytes,
    included: f.included,
    ...(f.included ? {} : { freeBytes: f.freeBytes }),
  }));
  const baselineIncluded = turn.reminders.filter((r) => r.status !== "dropped");
  return {
    freeBytes: free,
    reminders,
    baselineIncluded: baselineIncluded.length,
    included: reminders.filter((r) => r.included).length,
    baselineBytes: baselineIncluded.reduce((sum, r) => sum + r.bytes, 0),
    bytes: reminders.filter((r) => r.included).reduce((sum, r) => sum + r.bytes, 0),
  };
}

function reminderValues(reminder: TReminderDecision, turn: TTurnDecision): TemplateValues {
  const { meters } = turn;
  switch (reminder.key) {
    case "requests":
      return meters.requests ? requestsValues(meters.requests.used, meters.requests.limit, meters.requests.reserve, reminder.stage) : {};
    case "time":
      return meters.time ? timeValues(meters.time.elapsedMs, meters.time.limitMs, reminder.stage) : {};
    case "context":
      return meters.context ? contextValues(meters.context.requiredBytes, meters.context.capacityBytes, reminder.stage) : {};
    case "edits": {
      const block = blockOf(turn, reminder.subject);
      return block ? editsValues(block.blockId, block.used, block.limit, reminder.stage) : {};
    }
    case "review":
      return reviewValues(reminder.stage, turn.turn);
  }
}

function blockOf(turn: TTurnDecision, blockId: string | null): TBlockMeter | undefined {
  return turn.meters.edits?.find((b) => b.blockId === blockId);
}

function factsFor(key: TReminderKey, name: string, turn: TTurnDecision, policy: TPolicy | null): Facts {
  const { meters } = turn;
  switch (key) {
    case "requests": {
      const m = meters.requests;
      if (!m)
        return {
          ok: false,
          reason: policy && !policy.requests ? "the run's policy has no requests meter" : "no requests reading yet on this turn",
        };
      return { ok: true, values: requestsValues(m.used, m.limit, m.reserve, m.stage), stage: m.stage, exhausted: false, subject: null };
    }
    case "time": {
      const m = meters.time;
      if (!m)
        return { ok: false, reason: policy && !policy.time ? "the run's policy has no time meter" : "no time reading yet on this turn" };
      return { ok: true, values: timeValues(m.elapsedMs, m.limitMs, m.stage), stage: m.stage, exhausted: false, subject: null };
    }
    case "context": {
      const m = meters.context;
      if (!m) return { ok: false, reason: "the run's policy has no context meter" };
      return {
        ok: true,
        values: contextValues(m.requiredBytes, m.capacityBytes, m.stage),
        stage: m.stage,
        exhausted: false,
        subject: null,
      };
    }
    case "edits": {
      const block = blockFor(name, meters.edits ?? []);
      if (!block)
        return {
          ok: false,
          reason: policy && !policy.edits ? "the run's policy has no edits meter" : "no block has been edited yet on this turn",
        };
      return {
        ok: true,
        values: editsValues(block.blockId, block.used, block.limit, block.stage),
        stage: block.stage,
        exhausted: block.used >= block.limit,
        subject: block.blockId,
      };
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
      return { ok: true, values: reviewValues(k, turn.turn), stage: k, exhausted: false, subject: null };
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
