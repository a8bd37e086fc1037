import type { TTurnEvent } from "@/lib/contracts";
import { shortTime } from "@/lib/inspector/labels";
import styles from "./record.module.css";

function bodyText(body: unknown): string {
  const text = JSON.stringify(body);
  return text.length > 140 ? `${text.slice(0, 137)}…` : text;
}

/** Every event of the turn in run order, as recorded (folded unless the turn could not be rebuilt). */
export function EventsSection({ events, unreadable, open }: { events: readonly TTurnEvent[]; unreadable: number; open: boolean }) {
  return (
    <details className={styles.events} open={open}>
      <summary>
        All events of the turn <span className={styles.faint}>({events.length}, run order)</span>
      </summary>
      {events.length === 0 ? (
        <p className={styles.faintBlock}>No events.</p>
      ) : (
        <ol className={styles.eventList}>
          {events.map((e) => (
            <li key={e.id}>
              <span className={styles.num} title={e.ts}>
                {shortTime(e.ts)}
              </span>
              <code className={styles.eventType}>{e.type}</code>
              <span className={styles.eventBody}>{bodyText(e.body)}</span>
            </li>
          ))}
        </ol>
      )}
      {unreadable > 0 ? <p className={styles.faintBlock}>{unreadable} event(s) could not be read.</p> : null}
    </details>
  );
}
