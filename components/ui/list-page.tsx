import Link from "next/link";
import type { ReactNode } from "react";
import styles from "./list-page.module.css";

export { styles as listPageStyles };

/** A list page's title line: what it lists and how many, and on the right what it is doing (updating, live). */
export function ListHeader({ title, meta, pending, activity }: { title: string; meta: ReactNode; pending: boolean; activity?: ReactNode }) {
  return (
    <header className={styles.header}>
      <div className={styles.heading}>
        <h1 className={styles.title}>{title}</h1>
        <span className={styles.meta}>{meta}</span>
      </div>
      <div className={styles.activity} aria-live="polite">
        {pending ? (
          <span className={styles.updating}>
            <span className={styles.spinner} aria-hidden="true" /> Updating…
          </span>
        ) : (
          (activity ?? null)
        )}
      </div>
    </header>
  );
}

/** Cursor paging under a list: where we are, back to the first page, on to the next. */
export function ListPager({ info, firstHref, nextHref }: { info: ReactNode; firstHref: string | null; nextHref: string | null }) {
  return (
    <nav className={styles.pager} aria-label="Pages">
      <span className={styles.pagerInfo}>{info}</span>
      {firstHref ? (
        <Link className="button button-quiet" href={firstHref} scroll={false}>
          ← First page
        </Link>
      ) : null}
      {nextHref ? (
        <Link className="button button-quiet" href={nextHref} scroll={false}>
          Next page →
        </Link>
      ) : (
        <span className={styles.pagerEnd}>End of list</span>
      )}
    </nav>
  );
}

/** A part of the page that could not be loaded: what, the server's reason, and ways on. */
export function LoadError({
  title,
  message,
  onRetry,
  firstHref,
}: {
  title: string;
  message: string;
  onRetry: () => void;
  firstHref?: string;
}) {
  return (
    <div role="alert" className={styles.alert}>
      <h2 className={styles.alertTitle}>{title}</h2>
      <p className={styles.alertText}>{message}</p>
      <p className={styles.alertActions}>
        <button type="button" className="button button-quiet" onClick={onRetry}>
          Try again
        </button>
        {firstHref ? (
          <Link className="button button-quiet" href={firstHref}>
            First page
          </Link>
        ) : null}
      </p>
    </div>
  );
}
