import Link from "next/link";
import type { TProblem } from "@/lib/contracts";
import { listPageStyles as frame } from "@/components/ui/list-page";
import styles from "./url-problems.module.css";

/**
 * A page's URL holds filter values it cannot use: say which parameter and why, and offer a way
 * out — the same link without the bad values, or the page with no filters.
 */
export function UrlProblems({
  title,
  what,
  problems,
  withoutBadHref,
  resetHref,
  resetLabel,
}: {
  title: string;
  /** What cannot use the values, e.g. "the runs list". */
  what: string;
  problems: TProblem[];
  withoutBadHref: string;
  resetHref: string;
  resetLabel: string;
}) {
  return (
    <div className={frame.page}>
      <header>
        <h1 className={frame.title}>{title}</h1>
      </header>
      <div role="alert" className={frame.alert}>
        <h2 className={frame.alertTitle}>This link has filter values {what} cannot use</h2>
        <ul className={styles.problems}>
          {problems.map((p) => (
            <li key={`${p.path}:${p.message}`}>
              <code>{p.path || "query"}</code>: {p.message}
            </li>
          ))}
        </ul>
        <p className={frame.alertActions}>
          <Link className="button" href={withoutBadHref}>
            Drop the bad values
          </Link>
          <Link className="button button-quiet" href={resetHref}>
            {resetLabel}
          </Link>
        </p>
      </div>
    </div>
  );
}

/** The view without the parameters the problems name (their first path segment). */
export function withoutProblems<V extends object>(problems: readonly TProblem[]): Partial<V> {
  return Object.fromEntries(problems.map((p) => [p.path.split(".")[0], undefined])) as Partial<V>;
}
