import { formatTurn } from "@/lib/format";
import styles from "./inspector.module.css";

type TurnNavProps = {
  previousTurn: number | null;
  nextTurn: number | null;
  onNavigate: (turn: number) => void;
};

/** Previous / next existing turn (the same moves as the ← → keys). */
export function TurnNav({ previousTurn, nextTurn, onNavigate }: TurnNavProps) {
  return (
    <nav className={styles.nav} aria-label="Turns">
      <button
        type="button"
        className={styles.navButton}
        disabled={previousTurn === null}
        aria-keyshortcuts="ArrowLeft"
        aria-label={previousTurn === null ? "Previous turn (none)" : `Previous turn, ${formatTurn(previousTurn)}`}
        onClick={() => previousTurn !== null && onNavigate(previousTurn)}
      >
        <span aria-hidden="true">←</span> {previousTurn === null ? "prev" : formatTurn(previousTurn, { compact: true })}
      </button>
      <button
        type="button"
        className={styles.navButton}
        disabled={nextTurn === null}
        aria-keyshortcuts="ArrowRight"
        aria-label={nextTurn === null ? "Next turn (none)" : `Next turn, ${formatTurn(nextTurn)}`}
        onClick={() => nextTurn !== null && onNavigate(nextTurn)}
      >
        {nextTurn === null ? "next" : formatTurn(nextTurn, { compact: true })} <span aria-hidden="true">→</span>
      </button>
    </nav>
  );
}
