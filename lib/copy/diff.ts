import { REMINDER_KEYS, type TReminderKey, type TTemplates } from "@/lib/contracts";
import { templateNames, type CopyDraft } from "./templates";

export type WordOp = { op: "same" | "added" | "removed"; text: string };

export interface TemplateChange {
  key: TReminderKey;
  name: string;
  change: "added" | "removed" | "changed";
  before: string | null;
  after: string | null;
  /** Word by word, for a changed template (whitespace kept with the words). */
  words: WordOp[];
}

/** Every template added, removed or changed from `base` to `next`, by key then template order. */
export function diffCopies(base: Readonly<Record<TReminderKey, Readonly<TTemplates>>>, next: CopyDraft): TemplateChange[] {
  const changes: TemplateChange[] = [];
  for (const key of REMINDER_KEYS) {
    const before = base[key];
    const after = next[key];
    for (const name of templateNames({ ...before, ...after })) {
      const a = before[name];
      const b = after[name];
      if (a === b) continue;
      if (a === undefined) changes.push({ key, name, change: "added", before: null, after: b, words: [{ op: "added", text: b }] });
      else if (b === undefined) changes.push({ key, name, change: "removed", before: a, after: null, words: [{ op: "removed", text: a }] });
      else changes.push({ key, name, change: "changed", before: a, after: b, words: diffWords(a, b) });
    }
  }
  return changes;
}

/** A word-level diff (longest common subsequence of words with their trailing whitespace). */
export function diffWords(before: string, after: string): WordOp[] {
  const a = words(before);
  const b = words(after);
  // lengths[i][j] = LCS of a[i..] and b[j..]
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i][j] = a[i] === b[j] ? lengths[i + 1][j + 1] + 1 : Math.max(lengths[i + 1][j], lengths[i][j + 1]);
    }
  }
  const ops: WordOp[] = [];
  const push = (op: WordOp["op"], text: string) => {
    const last = ops[ops.length - 1];
    if (last?.op === op) last.text += text;
    else ops.push({ op, text });
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push("same", a[i]);
      i++;
      j++;
    } else if (lengths[i + 1][j] >= lengths[i][j + 1]) push("removed", a[i++]);
    else push("added", b[j++]);
  }
  while (i < a.length) push("removed", a[i++]);
  while (j < b.length) push("added", b[j++]);
  return ops;
}

function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}
