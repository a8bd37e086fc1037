import type { TReminderKey, TTemplates } from "@/lib/contracts";

/** The default copy (contract §5): what a run without `copy` gets, and where copy versions start. */
export const DEFAULT_COPY: Readonly<Record<TReminderKey, Readonly<TTemplates>>> = {
  requests: {
    "*": "Model requests: {used} of {usable} usable used ({percent}%); {remaining} left before the {reserve} reserved for final delivery.",
  },
  time: { "*": "Time: {elapsedMin} of {limitMin} min used ({percent}%); {remainingMin} min left." },
  context: {
    "*": "Context: this request is {requiredBytes} of {capacityBytes} bytes ({percent}%); choose material selectively.",
  },
  edits: {
    "*": "Block {blockId}: {used} of {limit} edits used; {remaining} left. Edit it only when needed.",
    exhausted:
      "Block {blockId} has no edits left. This limits only this block: other blocks, appending new content and finishing the answer are unaffected.",
  },
  review: { "*": "Checkpoint {checkpoint}: review the research objectives and any open evidence gaps before going on." },
};
