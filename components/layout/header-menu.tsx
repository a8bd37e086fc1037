"use client";

import type { ReactNode } from "react";
import { useDisclosure } from "./use-disclosure";

/**
 * A header button that opens a small panel under it (a disclosure, not an ARIA menu: the panel
 * holds ordinary links, radios and buttons, reached with Tab). `children` gets `close` for items
 * that should close the panel when used, such as a link to another page.
 */
export function HeaderMenu({
  label,
  className,
  panelClassName,
  children,
}: {
  label: string;
  className?: string;
  panelClassName?: string;
  children: (close: () => void) => ReactNode;
}) {
  const { close, rootProps, buttonProps, panelProps } = useDisclosure();
  return (
    <div className={`header-menu ${className ?? ""}`} {...rootProps}>
      <button className="header-menu-button" {...buttonProps}>
        {label}
        <span className="header-menu-chevron" aria-hidden="true" />
      </button>
      <div className={`header-menu-panel ${panelClassName ?? ""}`} {...panelProps}>
        {children(() => close(false))}
      </div>
    </div>
  );
}
