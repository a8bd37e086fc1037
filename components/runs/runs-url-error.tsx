import Link from "next/link";
import type { TProblem } from "../../lib/contracts";
import { runListHref, type RunListView } from "../../lib/queries/run-list-url";
import styles from "./runs-list.module.css";

/** The URL holds filter values the list cannot use: say which and why, and offer a way out. */
export function RunsUrlError({ problems, view }: { problems: TProblem[]; view: RunListView }) {
  const without = Object.fromEntries(problems.map((p) => [p.path.split(".")[0], undefined])) as Partial<RunListView>;
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.title}>Runs</h1>
      </header>
      <div role="alert" className={styles.alert}>
        <h2 className={styles.alertTitle}>This link has filter values the runs list cannot use</h2>
        <ul className={styles.problems}>
          {problems.map((p) => (
            <li key={`${p.path}:${p.message}`}>
              <code>{p.path || "query"}</code>: {p.message}
            </li>
          ))}
        </ul>
        <p className={styles.alertActions}>
          <Link className="button" href={runListHref(view, without)}>
            Drop the bad values
          </Link>{" "}
          <Link className="button button-quiet" href="/runs">
            Show all runs
          </Link>
        </p>
      </div>
    </div>
  );
}
