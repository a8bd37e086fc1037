import type { ReactNode } from "react";

type PanelProps = {
  /** Used for the heading and the section's accessible name. */
  title: string;
  id: string;
  /** Small text at the right of the panel header, e.g. a unit. */
  meta?: ReactNode;
  children: ReactNode;
  className?: string;
};

/** A Grafana-style panel: a thin header bar over dense content. */
export function Panel({ title, id, meta, children, className }: PanelProps) {
  const headingId = `${id}-title`;
  return (
    <section id={id} aria-labelledby={headingId} className={className ? `panel ${className}` : "panel"}>
      <header className="panel-header">
        <h2 id={headingId}>{title}</h2>
        {meta ? <span className="panel-meta">{meta}</span> : null}
      </header>
      <div className="panel-body">{children}</div>
    </section>
  );
}
