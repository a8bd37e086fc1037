import type { TReplayResult } from "@/lib/contracts";
import { formatCount, formatNumber, formatPercent } from "@/lib/format";
import { Panel } from "@/components/ui/panel";
import styles from "./replay.module.css";

const ACTIONS: Record<string, string> = {
  requests: "finalize",
  time: "finalize",
  context: "a smaller request next turn",
  edits: "no more edits of the exhausted block",
  review: "review objectives or check evidence",
};

/**
 * Contract §8 on the recorded runs, per copy they were rendered with: how often a delivered reminder
 * was followed by the related action within 3 turns. Association, never effect (R11) — and only
 * for copy the model actually saw: a what-if copy has no follow-up to measure.
 */
export function FollowUpPanel({ groups }: { groups: TReplayResult["followUp"] }) {
  return (
    <Panel id="follow-up" title="Follow-up after delivery" meta="association, not effect">
      <p className={styles.caveat}>
        <strong>Association, not effect.</strong> How often the model did the related thing within 3 turns after a reminder was delivered,
        on the recorded runs, per copy they were rendered with. Delivery is not adoption (R11), and a what-if copy was never shown to a
        model, so it has no follow-up of its own.
      </p>
      {groups.length === 0 ? <p className="muted">No delivered reminders in these runs.</p> : null}
      {groups.map((group) => (
        <div key={group.copy.fingerprint} className={styles.followGroup}>
          <h3>
            {group.copy.label} <span className="muted">· {formatCount(group.copy.runs, "run")}</span>
          </h3>
          <table className="data-table" aria-label={`Follow-up with ${group.copy.label}`}>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Related action</th>
                <th scope="col">Delivered</th>
                <th scope="col">Followed</th>
                <th scope="col">Rate (95% interval)</th>
              </tr>
            </thead>
            <tbody>
              {group.keys.map((k) => (
                <tr key={k.key}>
                  <th scope="row">{k.key}</th>
                  <td className="muted">{ACTIONS[k.key]}</td>
                  <td>{formatNumber(k.delivered)}</td>
                  <td>{formatNumber(k.followed)}</td>
                  <td>
                    {k.rate === null ? (
                      <span className="muted">none delivered</span>
                    ) : (
                      <>
                        {formatPercent(k.rate)}{" "}
                        <span className="muted">
                          ({formatPercent(k.low)}–{formatPercent(k.high)})
                        </span>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </Panel>
  );
}
