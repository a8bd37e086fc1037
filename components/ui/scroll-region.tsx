import type { ReactNode } from "react";

/**
 * A wide table's own horizontal scroller, so the page never scrolls sideways on a phone. It is a
 * named region in the tab order, so the keyboard can scroll it too (`.table-wrap` in app/globals.css).
 */
export function ScrollRegion({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div className={className ? `table-wrap ${className}` : "table-wrap"} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
