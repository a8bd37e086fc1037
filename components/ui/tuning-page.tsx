"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import styles from "./tuning-page.module.css";

const TUNING = [
  { href: "/copy", label: "Copy" },
  { href: "/copy/policy", label: "Policy" },
  { href: "/copy/replay", label: "What-if replay" },
] as const;

type TuningHref = (typeof TUNING)[number]["href"];

/** The frame of the tuning pages (copy, policy, replay): project, title, what the page does, and the tabs between them. */
export function TuningPage({
  project,
  title,
  lead,
  current,
  children,
}: {
  project: string;
  title: string;
  lead: ReactNode;
  current: TuningHref;
  children: ReactNode;
}) {
  return (
    <div className={styles.page}>
      <header className={styles.head}>
        <p className="eyebrow">{project}</p>
        <h1>{title}</h1>
        <p className="muted">{lead}</p>
      </header>
      <nav aria-label="Tuning" className={styles.tabs}>
        {TUNING.map(({ href, label }) => (
          <Link
            key={href}
            href={href}
            className={styles.tab}
            aria-current={href === current ? "page" : undefined}
            // The current tab is where you are: following it would only drop this page's state.
            onClick={(e) => href === current && e.preventDefault()}
          >
            {label}
          </Link>
        ))}
      </nav>
      {children}
    </div>
  );
}

/** An editor beside its sticky side panels (preview, changes, save); one column on narrow screens. */
export function EditorColumns({ editor, side }: { editor: ReactNode; side: ReactNode }) {
  return (
    <div className={styles.columns}>
      {editor}
      <div className={styles.side}>{side}</div>
    </div>
  );
}
