import Link from "next/link";
import type { MouseEvent, ReactNode } from "react";
import styles from "./sort-link.module.css";

/**
 * A sortable column's header link (the runs list, the Reviewer audit): the label, then an arrow for
 * the order the rows are in now (`sorted`; faint when the column is not the sort). The header cell
 * around it carries `aria-sort`.
 */
export function SortLink({
  href,
  title,
  sorted,
  onClick,
  children,
}: {
  href: string;
  title: string;
  sorted: "ascending" | "descending" | undefined;
  onClick?: (event: MouseEvent<HTMLAnchorElement>) => void;
  children: ReactNode;
}) {
  return (
    <Link className={styles.sortLink} href={href} scroll={false} onClick={onClick} title={title}>
      {children}
      <span className={sorted ? styles.sortOn : styles.sortOff} aria-hidden="true">
        {sorted === "ascending" ? "↑" : "↓"}
      </span>
    </Link>
  );
}
