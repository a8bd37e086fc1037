import Link from "next/link";
import type { TProblem } from "../../lib/contracts";
import { reviewerHref, type ReviewerView } from "../../lib/queries/reviewer-url";
import styles from "./reviewer.module.css";

/** The URL holds filter values the audit cannot use: say which and why, and offer a way out. */
export function ReviewerUrlError({ problems, view }: { problems: TProblem[]; view: ReviewerView }) {
  const without = Object.fromEntries(problems.map((p) => [p.path.split(".")[0], undefined])) as Partial<ReviewerView>;
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.title}>Reviewer audit</h1>
      </header>
      <div role="alert" className={styles.alert}>
        <h2 className={styles.alertTitle}>This link has filter values the Reviewer audit cannot use</h2>
        <ul className={styles.problems}>
          {problems.map((p) => (
            <li key={`${p.path}:${p.message}`}>
              <code>{p.path || "query"}</code>: {p.message}
            </li>
          ))}
        </ul>
        <p className={styles.alertActions}>
          <Link className="button" href={reviewerHref(view, without)}>
            Drop the bad values
          </Link>
          <Link className="button button-quiet" href="/reviewer">
            Show every candidate
          </Link>
        </p>
      </div>
    </div>
  );
}
