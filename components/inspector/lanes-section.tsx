import type { ReactNode } from "react";
import type { TEventOf, TReviewerDecision } from "@/lib/contracts";
import { denialExplanation } from "@/lib/reviewer/reasons";
import type { TReviewerEvent } from "@/lib/inspector/turn-record";
import { InspectorSection } from "./inspector-section";
import styles from "./lanes.module.css";

type Props = {
  rebuilt: TReviewerDecision | null;
  /** Whether the turn was rebuilt (a skipped turn makes no Reviewer candidate, R14). */
  wasRebuilt: boolean;
  reviewer: readonly TReviewerEvent[];
  notifications: readonly TEventOf<"user.notified">[];
  actions: readonly TEventOf<"model.action">[];
};

const REVIEWER_GLYPH: Record<TReviewerEvent["type"], string> = {
  "reviewer.candidate": "◇",
  "reviewer.admission": "✓",
  "reviewer.dispatched": "▶",
  "reviewer.completed": "■",
  "reviewer.cancelled": "⊘",
};

function ReviewerEventItem({ event }: { event: TReviewerEvent }) {
  let text: ReactNode;
  switch (event.type) {
    case "reviewer.candidate":
      text = (
        <>
          candidate <code>{event.body.candidateId}</code>
          {event.body.checkpoint !== undefined ? ` · checkpoint ${event.body.checkpoint}` : ""}
        </>
      );
      break;
    case "reviewer.admission":
      text = (
        <>
          admission {event.body.granted ? <strong>granted</strong> : <strong className={styles.denied}>denied</strong>} for{" "}
          <code>{event.body.candidateId}</code>
          {event.body.reasons.length > 0 ? ` — ${event.body.reasons.map(denialExplanation).join("; ")}` : ""}
        </>
      );
      break;
    case "reviewer.dispatched":
      text = (
        <>
          dispatched <code>{event.body.dispatchId}</code> for <code>{event.body.candidateId}</code>
        </>
      );
      break;
    case "reviewer.completed":
      text = (
        <>
          completed <code>{event.body.dispatchId}</code>
          {event.body.verdict ? ` · ${event.body.verdict}` : ""}
          {event.body.notes ? <span className={styles.faint}> — {event.body.notes}</span> : null}
        </>
      );
      break;
    case "reviewer.cancelled":
      text = (
        <>
          cancelled <code>{event.body.candidateId}</code> · reason <code>{event.body.reason}</code>
        </>
      );
      break;
  }
  const glyph = event.type === "reviewer.admission" && !event.body.granted ? "✗" : REVIEWER_GLYPH[event.type];
  return (
    <li className={styles.item}>
      <span className={styles.glyph} aria-hidden="true">
        {glyph}
      </span>
      <span>{text}</span>
    </li>
  );
}

function RebuiltReviewer({ rebuilt, wasRebuilt }: { rebuilt: TReviewerDecision | null; wasRebuilt: boolean }) {
  if (!wasRebuilt) return <p className={styles.rule}>Rebuild: skipped turn — no Reviewer candidate (R14).</p>;
  if (!rebuilt) return <p className={styles.rule}>Rebuild: no Reviewer candidate this turn.</p>;
  const { granted, reasons } = rebuilt.admission;
  return (
    <div className={styles.rule} data-granted={granted}>
      <div>
        Rebuild: candidate at <strong>checkpoint {rebuilt.candidate.checkpoint}</strong> · admission{" "}
        {granted ? <strong>granted</strong> : <strong className={styles.denied}>denied</strong>}
      </div>
      {reasons.length > 0 ? (
        <ul className={styles.reasons}>
          {reasons.map((r) => (
            <li key={r}>
              <code>{r}</code> {denialExplanation(r)}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * The Reviewer, user notifications and model actions of the turn, each in its own lane (R12): a
 * reminder is not a Reviewer dispatch, and neither is a notification.
 */
export function LanesSection({ rebuilt, wasRebuilt, reviewer, notifications, actions }: Props) {
  return (
    <InspectorSection id="inspector-lanes" title="Reviewer · notifications · actions" meta="own lanes · R12">
      <div className={styles.lanes}>
        <section className={styles.lane} aria-labelledby="lane-reviewer">
          <h4 id="lane-reviewer">Reviewer</h4>
          <RebuiltReviewer rebuilt={rebuilt} wasRebuilt={wasRebuilt} />
          {reviewer.length === 0 ? (
            <p className={styles.none}>No Reviewer event recorded.</p>
          ) : (
            <ol className={styles.items}>
              {reviewer.map((e) => (
                <ReviewerEventItem key={e.id} event={e} />
              ))}
            </ol>
          )}
        </section>
        <section className={styles.lane} aria-labelledby="lane-notifications">
          <h4 id="lane-notifications">User notifications</h4>
          {notifications.length === 0 ? (
            <p className={styles.none}>None.</p>
          ) : (
            <ol className={styles.items}>
              {notifications.map((e) => (
                <li key={e.id} className={styles.item}>
                  <span className={styles.glyph} aria-hidden="true">
                    ✉
                  </span>
                  <span>
                    <code>{e.body.channel}</code> {e.body.message}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>
        <section className={styles.lane} aria-labelledby="lane-actions">
          <h4 id="lane-actions">Model actions</h4>
          {actions.length === 0 ? (
            <p className={styles.none}>None.</p>
          ) : (
            <ol className={styles.items}>
              {actions.map((e) => (
                <li key={e.id} className={styles.item}>
                  <span className={styles.glyph} aria-hidden="true">
                    ›
                  </span>
                  <span>
                    {e.body.kind.replace(/_/g, " ")}
                    {e.body.blockId ? (
                      <>
                        {" "}
                        <code>{e.body.blockId}</code>
                      </>
                    ) : null}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </InspectorSection>
  );
}
