import type { TContextParts, TReminderDecision } from "@/lib/contracts";
import { formatBytes, formatPercent, formatTokens } from "@/lib/format";
import { barPercent } from "@/lib/inspector/waterfall";
import { PART_LABELS, partsBreakdown } from "@/lib/run-view/context-parts";
import styles from "./record.module.css";

/**
 * Contract §11 for one turn: what filled the final request, part by part (bytes and share of its
 * required bytes), this turn's reminders that were fitted after it, and the provider's tokens apart.
 */
export function PartsBreakdown({
  requiredBytes,
  parts,
  capacityBytes,
  reminders,
  providerTokens,
  providerCachedTokens,
}: {
  requiredBytes: number;
  parts: TContextParts | undefined;
  capacityBytes: number | null;
  reminders: readonly TReminderDecision[];
  providerTokens: number | undefined;
  providerCachedTokens: number | undefined;
}) {
  const shares = parts ? partsBreakdown(requiredBytes, parts) : [];
  const sum = (status: TReminderDecision["status"]) => reminders.filter((r) => r.status === status).reduce((n, r) => n + r.bytes, 0);
  const dropped = reminders.filter((r) => r.status === "dropped");
  return (
    <div className={styles.parts}>
      {parts ? (
        <>
          <h4 className={styles.subhead}>What filled the request</h4>
          <ul className={styles.sizes} aria-label="The final request by part">
            {shares.map(({ slice, bytes, share }) => (
              <li key={slice} className={styles.sizeRow} data-tone="part">
                <span className={styles.sizeLabel}>{PART_LABELS[slice]}</span>
                <span className={styles.sizeTrack} aria-hidden="true">
                  <span
                    className={styles.sizeFill}
                    data-slice={slice}
                    style={{
                      width: `${barPercent(bytes, Math.max(1, requiredBytes))}%`,
                      background: `var(--part-${slice}, var(--text-faint))`,
                    }}
                  />
                </span>
                <span className={styles.num}>{formatBytes(bytes)}</span>
                <span className={styles.faint}>{share === null ? "" : formatPercent(share, { digits: 1 })}</span>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className={styles.faintBlock}>The agent did not report what filled this request (contextParts, an optional addition).</p>
      )}
      {reminders.length ? (
        <p className={styles.explain}>
          This turn&apos;s reminders were fitted after the request was measured
          {capacityBytes !== null ? ` (${formatBytes(capacityBytes - requiredBytes)} free of ${formatBytes(capacityBytes)})` : ""}:{" "}
          {formatBytes(sum("delivered") + sum("pending") + sum("uncertain") + sum("failed"))} placed
          {dropped.length ? `, ${dropped.length} dropped for lack of room (${formatBytes(sum("dropped"))})` : ""}.
        </p>
      ) : null}
      {providerTokens !== undefined ? (
        <p className={styles.faint}>
          Provider: {formatTokens(providerTokens)}
          {providerCachedTokens !== undefined ? `, ${formatTokens(providerCachedTokens)} of them cached` : ""} (tokens, as reported; never
          converted to bytes, not used by the rules).
        </p>
      ) : null}
    </div>
  );
}
