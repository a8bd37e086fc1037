import type { TReminderDecision, TTurnDecision, TTurnDifference } from "@/lib/contracts";

/** One row of the side-by-side table: a reminder (key and subject) as each run decided it on the turn. */
export interface PairRow {
  label: string;
  a: string;
  b: string;
  differs: boolean;
}

const reminderLabel = (r: Pick<TReminderDecision, "key" | "subject">) => (r.subject === null ? r.key : `${r.key} · ${r.subject}`);
const fate = (r: TReminderDecision | undefined) => (r ? `${r.kind} stage ${r.stage} · ${r.status}` : "none");

/**
 * The two runs' decisions at one turn as rows: each reminder key and subject either run gave (in
 * A's presentation order, then B's others), then the Reviewer candidate; what differs is marked.
 */
export function pairRows(a: TTurnDecision | null, b: TTurnDecision | null): PairRow[] {
  const rows: PairRow[] = [];
  const labels: string[] = [];
  for (const r of [...(a?.reminders ?? []), ...(b?.reminders ?? [])]) if (!labels.includes(reminderLabel(r))) labels.push(reminderLabel(r));
  for (const label of labels) {
    const [ra, rb] = [a?.reminders.find((r) => reminderLabel(r) === label), b?.reminders.find((r) => reminderLabel(r) === label)];
    const [fa, fb] = [a ? fate(ra) : "turn not rebuilt", b ? fate(rb) : "turn not rebuilt"];
    rows.push({ label, a: fa, b: fb, differs: fa !== fb });
  }
  const reviewer = (t: TTurnDecision | null) =>
    !t
      ? "turn not rebuilt"
      : !t.reviewer
        ? "none"
        : `checkpoint ${t.reviewer.candidate.checkpoint} · ${t.reviewer.admission.granted ? "admitted" : `denied (${t.reviewer.admission.reasons.join(", ")})`}`;
  const [va, vb] = [reviewer(a), reviewer(b)];
  if (a?.reviewer || b?.reviewer) rows.push({ label: "Reviewer candidate", a: va, b: vb, differs: va !== vb });
  return rows;
}

/** The difference in words. */
export const DIFFERENCE_WORDS: Record<TTurnDifference, string> = {
  same: "the same decisions",
  "only-a": "only run A rebuilt this turn (run B skipped it or has no such turn)",
  "only-b": "only run B rebuilt this turn (run A skipped it or has no such turn)",
  reminders: "other reminders or fates",
  reviewer: "another Reviewer candidate or admission",
  "reminders-and-reviewer": "other reminders and another Reviewer decision",
};
