import type { ReactNode } from "react";
import styles from "./inspector.module.css";

type InspectorSectionProps = {
  /** Unique within the page; used for the heading id. */
  id: string;
  title: string;
  /** Small text at the right of the heading: a unit, a count, a rule reference. */
  meta?: ReactNode;
  children: ReactNode;
};

/** One block of the inspector: a small heading over dense content, named for assistive tech. */
export function InspectorSection({ id, title, meta, children }: InspectorSectionProps) {
  const headingId = `${id}-title`;
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <header className={styles.sectionHeader}>
        <h3 id={headingId}>{title}</h3>
        {meta ? <span className={styles.sectionMeta}>{meta}</span> : null}
      </header>
      {children}
    </section>
  );
}
