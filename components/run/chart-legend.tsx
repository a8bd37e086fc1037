import { DELIVERY_STATUSES } from "@/lib/contracts";
import { StatusMark } from "@/components/ui/status-mark";
import styles from "./run.module.css";

/** What the marks and lines of the charts mean: status by shape, colour and word. */
export function ChartLegend() {
  return (
    <div className={styles.legend} role="list" aria-label="Legend">
      <span className={styles.legendTitle}>reminders</span>
      {DELIVERY_STATUSES.map((status) => (
        <span key={status} role="listitem">
          <StatusMark status={status} />
        </span>
      ))}
      <span className={styles.legendSep} aria-hidden="true" />
      <span role="listitem" className={styles.legendLine}>
        <svg width="22" height="8" aria-hidden="true">
          <line x1="0" y1="4" x2="22" y2="4" stroke="var(--chart-limit)" strokeWidth="1.5" />
        </svg>
        limit / capacity
      </span>
      <span role="listitem" className={styles.legendLine}>
        <svg width="22" height="8" aria-hidden="true">
          <line x1="0" y1="4" x2="22" y2="4" stroke="var(--chart-limit)" strokeWidth="1.5" strokeDasharray="6 3" />
        </svg>
        usable
      </span>
      <span role="listitem" className={styles.legendLine}>
        <svg width="22" height="8" aria-hidden="true">
          <line x1="0" y1="4" x2="22" y2="4" stroke="var(--chart-threshold)" strokeWidth="1.2" strokeDasharray="2 3" />
        </svg>
        stage threshold
      </span>
      <span role="listitem" className={styles.legendLine}>
        <svg width="12" height="12" aria-hidden="true">
          <path d="M6,1L11,6L6,11L1,6Z" fill="var(--chart-compaction)" stroke="var(--chart-compaction)" />
        </svg>
        compaction adopted
      </span>
      <span role="listitem" className={styles.legendLine}>
        <svg width="12" height="12" aria-hidden="true">
          <path d="M6,1L11,6L6,11L1,6Z" fill="none" stroke="var(--chart-compaction)" strokeWidth="1.5" />
        </svg>
        rolled back (candidate bytes)
      </span>
    </div>
  );
}
