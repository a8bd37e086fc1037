"use client";

import type { ReactNode } from "react";
import { useDisclosure } from "@/components/layout/use-disclosure";
import styles from "./popover.module.css";

/**
 * A button that opens a small panel under it (a disclosure: the panel holds ordinary controls,
 * reached with Tab; Escape or a click outside closes it). `children` gets `close`.
 */
export function Popover({
  label,
  children,
  align = "start",
}: {
  label: string;
  /** The panel's content; `open` lets it load what it shows only once it is opened. */
  children: (close: () => void, open: boolean) => ReactNode;
  align?: "start" | "end";
}) {
  const { open, close, rootProps, buttonProps, panelProps } = useDisclosure();
  return (
    <div className={styles.root} {...rootProps}>
      <button className={styles.button} {...buttonProps}>
        {label} <span aria-hidden="true">▾</span>
      </button>
      <div className={`${styles.panel} ${align === "end" ? styles.end : ""}`} {...panelProps}>
        {children(() => close(true), open)}
      </div>
    </div>
  );
}
