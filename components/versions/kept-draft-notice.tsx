import { formatInstant } from "@/lib/format";
import styles from "./versions.module.css";

/** Says that an unsaved draft kept in this browser was brought back, with a way to throw it away. */
export function KeptDraftNotice({
  restoredAt,
  onDiscard,
  onDismiss,
}: {
  restoredAt: string;
  onDiscard: () => void;
  onDismiss: () => void;
}) {
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
