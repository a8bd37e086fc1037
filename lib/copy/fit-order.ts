import { formatBytes } from "@/lib/format";
import type { RefitTurn } from "./preview";
import type { TemplatePreview } from "./preview";

/**
 * A template's fit on the previewed turn, told both ways: alone in the turn's free bytes, and in
 * R8's first fit with the turn's other candidates (rendered with the same draft) ahead of it in
 * presentation order — the fit that decides whether it is sent.
 */
export type FitVerdict =
  /** The policy has no byte limit: everything fits. */
  | { kind: "unlimited" }
  /** The template is not what the turn's candidate of this key (block) is rendered with, or the key has no candidate: only its fit alone can be told. */
  | { kind: "alone"; fitsAlone: boolean; freeBytes: number }
  /** A candidate of the turn, fitted in R8 order: `after` names the reminders included before it, `freeBytes` what they left it. */
  | { kind: "ordered"; fitsAlone: boolean; included: boolean; after: string[]; freeBytes: number };

/** How a reminder is named in a fit verdict: its key, or for an `edits` reminder its block. */
export function fitName(r: { key: string; subject: string | null }): string {
  return r.key === "edits" && r.subject !== null ? r.subject : r.key;
}

/**
 * The verdict for one template's preview, from the turn refitted with the whole draft (refitTurn:
 * the rebuild's renderer and lib/core's fitDecisions, R8). The template's candidate is the refit
 * reminder of its key (and block) rendered with it; the reminders included before it are what it
 * was fitted after.
 */
export function fitVerdict(preview: TemplatePreview, refit: RefitTurn): FitVerdict {
  if (preview.freeBytes === null) return { kind: "unlimited" };
  const fitsAlone = preview.fits;
  const index = refit.reminders.findIndex((r) => r.key === preview.key && (preview.key !== "edits" || r.subject === preview.subject));
  const candidate = index < 0 ? undefined : refit.reminders[index];
  if (!candidate || !preview.inUse || candidate.stage !== preview.stage || candidate.text !== preview.text) {
    return { kind: "alone", fitsAlone, freeBytes: preview.freeBytes };
  }
  const ahead = refit.reminders.slice(0, index).filter((r) => r.included);
  const used = ahead.reduce((sum, r) => sum + r.bytes, 0);
  return {
    kind: "ordered",
    fitsAlone,
    included: candidate.included,
    after: ahead.map(fitName),
    freeBytes: preview.freeBytes - used,
  };
}

/** The verdict in words, e.g. "fits alone; dropped after context + b1 (3 B left)". */
export function fitVerdictText(verdict: FitVerdict): string {
  switch (verdict.kind) {
    case "unlimited":
      return "no byte limit on this run: fits";
    case "alone":
      return `${verdict.fitsAlone ? "fits alone" : "✕ too long even alone"} in ${formatBytes(verdict.freeBytes)} free; not a candidate on this turn, so not fitted with the others`;
    case "ordered": {
      const alone = verdict.fitsAlone ? "fits alone" : "✕ too long even alone";
      const after = verdict.after.length ? ` after ${verdict.after.join(" + ")}` : " first";
      const outcome = verdict.included ? "fits" : "dropped";
      return `${alone}; ${outcome}${after} (${formatBytes(verdict.freeBytes)} left)`;
    }
  }
}
