"use client";

import { useEffect, useState } from "react";
import { keyPressOf } from "@/lib/keys/key-press";
import { JUMP_KEYS, jumpForKey, jumpIndex, jumpMessage, type JumpPosition } from "@/lib/keys/list-jump";
import styles from "./jump-keys.module.css";

/** The attributes that make an element (a row, a list item) a stop of the page's `[` `]` keys. */
export function jumpTarget(kind: string, label: string): { "data-jump": string; "data-jump-label": string } {
  return { "data-jump": kind, "data-jump-label": label };
}

/** Where the focus is among the items: on one, elsewhere (before which item), or nowhere. */
function positionOf(active: Element | null, items: readonly HTMLElement[]): JumpPosition {
  if (!active || active === document.body || active === document.documentElement) return null;
  const on = items.findIndex((item) => item.contains(active));
  if (on >= 0) return { on };
  const before = items.findIndex((item) => active.compareDocumentPosition(item) & Node.DOCUMENT_POSITION_FOLLOWING);
  return { before: before < 0 ? items.length : before };
}

/**
 * `]` / `[` move the focus to the next / previous flagged item of the page, in page order: the
 * elements marked with jumpTarget(kind, …), each focused at its `[data-jump-focus]` element or its
 * first link (docs/architecture.md#problem-keys). Shows the keys and says where the jump landed in
 * a live region. One listener while mounted; the items are read at each press, so a new page of
 * rows needs nothing more.
 */
export function JumpKeys({ kind, noun }: { kind: string; noun: string }) {
  const [message, setMessage] = useState("");
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const direction = jumpForKey(keyPressOf(event));
      if (!direction) return;
      event.preventDefault();
      const items = Array.from(document.querySelectorAll<HTMLElement>(`[data-jump="${CSS.escape(kind)}"]`));
      const index = jumpIndex(positionOf(document.activeElement, items), items.length, direction);
      if (index !== null) {
        const item = items[index];
        const focusable =
          item.querySelector<HTMLElement>("[data-jump-focus]") ?? item.querySelector<HTMLElement>("a[href], button") ?? item;
        focusable.focus({ preventScroll: true });
        focusable.scrollIntoView?.({ block: "center" });
      }
      setMessage(jumpMessage(noun, index, items.length, direction, index === null ? "" : (items[index].dataset.jumpLabel ?? "")));
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [kind, noun]);

  return (
    <span className={styles.keys}>
      <span className={styles.hint}>
        <kbd>{JUMP_KEYS.previous}</kbd> <kbd>{JUMP_KEYS.next}</kbd> previous / next {noun}
      </span>
      <span role="status" aria-live="polite" className={styles.message} data-testid={`jump-${kind}`}>
        {message}
      </span>
    </span>
  );
}
