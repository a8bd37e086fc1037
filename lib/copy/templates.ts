import { REMINDER_KEYS, type TCopy, type TReminderKey, type TTemplates } from "@/lib/contracts";
import { resolveCopy, type TResolvedCopy } from "@/lib/core";

/** The copy editor's `?from=` value for the built-in default copy of contract §5 (no `from` means the project default). */
export const SPEC_COPY_PARAM = "spec";

/** A copy being edited: every key, each with its templates (name → text). */
export type CopyDraft = Record<TReminderKey, TTemplates>;

/** A full, editable copy: the given copy over the default, key by key (contract §5). */
export function draftFrom(copy: TCopy | TResolvedCopy | null | undefined): CopyDraft {
  const resolved = resolveCopy(copy ?? undefined);
  return Object.fromEntries(REMINDER_KEYS.map((key) => [key, { ...resolved[key] }])) as CopyDraft;
}

/** Template names in reading order: `*`, then stage numbers ascending, then `exhausted`, then anything else. */
export function templateNames(templates: Readonly<TTemplates>): string[] {
  const rank = (name: string) => (name === "*" ? 0 : /^\d+$/.test(name) ? 1 : name === "exhausted" ? 2 : 3);
  return Object.keys(templates).sort((a, b) => rank(a) - rank(b) || (rank(a) === 1 ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0));
}

/** How a template name reads to people: `*` is "any stage". */
export function templateLabel(key: TReminderKey, name: string): string {
  if (name === "*") return key === "review" ? "any checkpoint" : "any stage";
  if (name === "exhausted") return "exhausted block";
  return key === "review" ? `checkpoint ${name}` : `stage ${name}`;
}

/** The draft with one template's text set (added when it was not there). */
export function withTemplate(draft: CopyDraft, key: TReminderKey, name: string, text: string): CopyDraft {
  return { ...draft, [key]: { ...draft[key], [name]: text } };
}

/** The draft without one template. */
export function withoutTemplate(draft: CopyDraft, key: TReminderKey, name: string): CopyDraft {
  const { [name]: _removed, ...rest } = draft[key];
  return { ...draft, [key]: rest };
}
