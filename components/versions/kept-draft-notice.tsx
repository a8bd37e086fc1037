import { formatInstant } from "@/lib/format";
import styles from "./versions.module.css";
import type { KeptDraft } from "./use-kept-draft";

/** Says that an unsaved draft kept in this browser was brought back, with a way to throw it away. */
export function KeptDraftNotice({
  kept,
  onReset,
}: {
  /** The editor's kept draft (useKeptDraft): nothing is shown unless a draft was restored. */
  kept: Pick<KeptDraft, "restoredAt" | "forget" | "dismissNotice">;
  /** Puts the version edited from back into the editor (after the kept draft is discarded). */
  onReset: () => void;
}) {
  const { restoredAt } = kept;
  if (!restoredAt) return null;
  const onDiscard = () => {
    kept.forget();
    onReset();
  };
  const onDismiss = kept.dismissNotice;
  return (
    <div className={styles.keptNotice} role="status" data-testid="draft-restored">
      <p>
        Restored your unsaved draft from {formatInstant(restoredAt)}, kept in this browser. It is not saved as a version yet.{" "}
        <button type="button" className="link-button" onClick={onDiscard}>
          Discard the draft
        </button>{" "}
        <button type="button" className="link-button" onClick={onDismiss}>
          Keep editing
        </button>
      </p>
    </div>
  );
}
