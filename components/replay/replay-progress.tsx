import type { TReplayJob } from "@/lib/contracts";
import { formatNumber } from "@/lib/format";
import styles from "./replay.module.css";

/** A running replay: runs and turns done of the total, and a way to stop it. */
export function ReplayProgress({ job, onCancel, cancelling }: { job: TReplayJob; onCancel: () => void; cancelling: boolean }) {
  const { totalRuns, doneRuns, totalTurns, doneTurns } = job.progress;
  const share = totalTurns > 0 ? doneTurns / totalTurns : totalRuns > 0 ? doneRuns / totalRuns : 0;
  return (
    <div className={styles.progress}>
      <div
        className={styles.progressBar}
        role="progressbar"
        aria-label="Replay progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(share * 100)}
      >
        <span style={{ width: `${share * 100}%` }} />
      </div>
      <p className={styles.progressText}>
        {formatNumber(doneRuns)} of {formatNumber(totalRuns)} runs · {formatNumber(doneTurns)} of {formatNumber(totalTurns)} turns rebuilt
        <button type="button" className="button button-quiet" onClick={onCancel} disabled={cancelling}>
          {cancelling ? "Cancelling…" : "Cancel"}
        </button>
      </p>
    </div>
  );
}
