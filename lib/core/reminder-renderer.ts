import type { Rendered } from "./fit";
import { CompiledTemplate, pickTemplate, reminderCost, type TResolvedCopy } from "./render";
import { editsValues, type TemplateValues } from "./template-values";

/** The last state reminder rendered for one block, with the facts it was rendered from. */
interface BlockState {
  template: string;
  used: number;
  limit: number;
  rendered: Rendered;
}

/**
 * Renders one run's reminders from its copy (contract §5, R8): template lookup, placeholder filling
 * and the cost. The rebuild renders every candidate through one renderer, and the copy editor's
 * preview renders a recorded turn's reminders again through one over the draft, so both run this
 * code. Two caches keep a long run cheap, and neither changes a result: each template is compiled
 * once, and a block's state reminder — which R6 repeats every turn — is rendered again only when
 * the block's template, stage, `used` or `limit` changed (its text depends on nothing else).
 * Rendered values are never mutated, so one may be handed out on many turns. One renderer serves
 * one rebuild.
 */
export class ReminderRenderer {
  private readonly compiled = new Map<string, CompiledTemplate>();
  private readonly blockStates = new Map<string, BlockState>();

  constructor(readonly copy: TResolvedCopy) {}

  /** A reminder rendered from the given template (R8 steps 1–2: its text, and its cost in bytes). */
  render(
    key: Rendered["key"],
    subject: string | null,
    kind: Rendered["kind"],
    stage: number,
    template: string,
    values: TemplateValues,
  ): Rendered {
    let compiled = this.compiled.get(template);
    if (compiled === undefined) {
      compiled = new CompiledTemplate(template);
      this.compiled.set(template, compiled);
    }
    const text = compiled.render(values);
    return { key, subject, kind, stage, text, bytes: reminderCost(text) };
  }

  /** A reminder rendered from the template lookup picks in this renderer's copy (contract §5). */
  reminder(
    key: Rendered["key"],
    subject: string | null,
    kind: Rendered["kind"],
    stage: number,
    values: TemplateValues,
    exhausted = false,
  ): Rendered {
    return this.render(key, subject, kind, stage, pickTemplate(this.copy[key], stage, exhausted), values);
  }

  /** R6: the state reminder of a block at stage >= 1, `exhausted` when `used >= limit`. */
  blockState(blockId: string, stage: number, used: number, limit: number): Rendered {
    const template = pickTemplate(this.copy.edits, stage, used >= limit);
    const last = this.blockStates.get(blockId);
    if (last !== undefined && last.template === template && last.rendered.stage === stage && last.used === used && last.limit === limit) {
      return last.rendered;
    }
    const rendered = this.render("edits", blockId, "state", stage, template, editsValues(blockId, used, limit, stage));
    this.blockStates.set(blockId, { template, used, limit, rendered });
    return rendered;
  }
}
