import { REMINDER_KEYS, type TReminderKey, type TTemplates } from "@/lib/contracts";
import { templateNames, type CopyDraft } from "./templates";

/**
 * One run of the word diff. `gapAfter` marks a deleted run followed directly by an inserted one
 * with no whitespace between them: shown side by side they would read as one glued word
 * ("selectively.be selective."), so the view puts a space between them (not part of either text).
 */
export type WordOp = { op: "same" | "added" | "removed"; text: string; gapAfter?: true };

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

/**
 * A word-level diff: the longest common subsequence of words and of the whitespace between them
 * (separate tokens, so spacing is kept exactly and a changed word never takes its neighbour's
 * space with it). Joining the runs that are not `added` gives `before`; those not `removed`, `after`.
 */
export function diffWords(before: string, after: string): WordOp[] {
  const a = tokens(before);
  const b = tokens(after);
  // lengths[i][j] = LCS of a[i..] and b[j..]
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i][j] = a[i] === b[j] ? lengths[i + 1][j + 1] + 1 : Math.max(lengths[i + 1][j], lengths[i][j + 1]);
    }
  }
  const raw: WordOp[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      raw.push({ op: "same", text: a[i] });
      i++;
      j++;
    } else if (lengths[i + 1][j] >= lengths[i][j + 1]) raw.push({ op: "removed", text: a[i++] });
    else raw.push({ op: "added", text: b[j++] });
  }
  while (i < a.length) raw.push({ op: "removed", text: a[i++] });
  while (j < b.length) raw.push({ op: "added", text: b[j++] });
  return gapped(merged(raw));
}

/**
 * Runs merged: a lone whitespace token kept between two changes of the same kind joins them
 * ("this request is " deleted as one run, not three), and neighbours of one kind join.
 */
function merged(raw: readonly WordOp[]): WordOp[] {
  const ops: WordOp[] = [];
  // Deletions and insertions that touch are grouped: all deleted words first, then all inserted ones.
  const flush = (removed: string, added: string) => {
    if (removed) push("removed", removed);
    if (added) push("added", added);
  };
  const push = (op: WordOp["op"], text: string) => {
    const last = ops[ops.length - 1];
    if (last?.op === op) last.text += text;
    else ops.push({ op, text });
  };
  let removed = "";
  let added = "";
  for (let k = 0; k < raw.length; k++) {
    const t = raw[k];
    if (t.op === "removed") removed += t.text;
    else if (t.op === "added") added += t.text;
    else if (/^\s+$/.test(t.text) && (removed || added) && raw[k + 1] && raw[k + 1].op !== "same") {
      // Whitespace shared by both sides inside a change: it belongs to both runs.
      removed += t.text;
      added += t.text;
    } else {
      flush(removed, added);
      removed = added = "";
      push("same", t.text);
    }
  }
  flush(removed, added);
  return ops;
}

/** Marks a deletion followed by an insertion with no whitespace between them (see WordOp). */
function gapped(ops: WordOp[]): WordOp[] {
  for (let k = 0; k + 1 < ops.length; k++) {
    const [x, y] = [ops[k], ops[k + 1]];
    if (x.op === "removed" && y.op === "added" && !/\s$/.test(x.text) && !/^\s/.test(y.text)) x.gapAfter = true;
  }
  return ops;
}

/** Words and the whitespace between them, as separate tokens. */
function tokens(text: string): string[] {
  return text.match(/\S+|\s+/g) ?? [];
}

/** The diff as plain text for people and tests: `[-deleted-]` and `{+inserted+}`, with the view's gap as a space. */
export function diffText(ops: readonly WordOp[]): string {
  return ops
    .map((o) => (o.op === "same" ? o.text : o.op === "removed" ? `[-${o.text}-]${o.gapAfter ? " " : ""}` : `{+${o.text}+}`))
    .join("");
}
