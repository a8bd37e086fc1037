"use client";

import { usePathname } from "next/navigation";
import { useEffect, useId, useRef } from "react";
import { isTypingOrShortcut, keyPressOf } from "@/lib/keys/key-press";
import { shortcutGroupsFor } from "@/lib/keys/shortcuts";

/**
 * The keyboard help: a modal dialog listing every page's keys, this page's first. `?` opens it from
 * anywhere but a field; so does the user menu's "Keyboard shortcuts" (through `openRef`). Esc or its
 * button closes it, and the focus goes back where it was (or to the menu's button, see onClose).
 */
export function KeyboardHelp({ openRef }: { openRef: { current: ((from?: HTMLElement) => void) | null } }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  /** The button of the menu panel the opener is in, if any: the panel's content is gone once the menu closes. */
  const openerMenu = useRef<HTMLElement | null>(null);
  const idBase = useId();
  const pathname = usePathname() ?? "";
  const { current, groups } = shortcutGroupsFor(pathname);

  useEffect(() => {
    const open = (from?: HTMLElement) => {
      const element = dialog.current;
      if (!element || element.open) return;
      opener.current = from ?? (document.activeElement instanceof HTMLElement ? document.activeElement : null);
      const panel = opener.current?.closest<HTMLElement>("[id]");
      openerMenu.current = panel ? document.querySelector<HTMLElement>(`[aria-controls="${CSS.escape(panel.id)}"]`) : null;
      if (typeof element.showModal === "function") element.showModal();
      else element.setAttribute("open", "");
    };
    openRef.current = open;
    function onKeyDown(event: KeyboardEvent) {
      const press = keyPressOf(event);
      if (press.key !== "?" || isTypingOrShortcut(press)) return;
      event.preventDefault();
      open();
    }
    window.addEventListener("keydown", onKeyDown);
    return () => {
      window.removeEventListener("keydown", onKeyDown);
      openRef.current = null;
    };
  }, [openRef]);

  const close = () => {
    const element = dialog.current;
    if (!element) return;
    if (typeof element.close === "function") element.close();
    else element.removeAttribute("open");
  };

  // The dialog gives the focus back to what opened it; opened from the user menu, that button is
  // gone by then (the menu closed as the focus left it), so the menu's own button gets it instead.
  const onClose = () => {
    const from = opener.current;
    const controller = openerMenu.current;
    opener.current = null;
    openerMenu.current = null;
    const active = document.activeElement;
    if (!from || (active && active !== document.body && !dialog.current?.contains(active))) return;
    (from.isConnected && from.offsetParent !== null ? from : controller)?.focus();
  };

  return (
    <dialog ref={dialog} className="keyboard-help" aria-labelledby="keyboard-help-title" onClose={onClose}>
      <header className="keyboard-help-head">
        <h2 id="keyboard-help-title">Keyboard shortcuts</h2>
        <button type="button" className="button button-quiet" onClick={close}>
          Close
        </button>
      </header>
      {groups.map((group, i) => (
        <section key={group.title} aria-labelledby={`${idBase}-${i}`}>
          <h3 id={`${idBase}-${i}`}>
            {group.title}
            {group === current ? <span className="keyboard-help-here"> · this page</span> : null}
          </h3>
          <dl>
            {group.shortcuts.map((shortcut) => (
              <div key={shortcut.does}>
                <dt>
                  {shortcut.keys.map((key, i) => (
                    <span key={key}>
                      {i > 0 ? " " : null}
                      <kbd>{key}</kbd>
                    </span>
                  ))}
                </dt>
                <dd>{shortcut.does}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </dialog>
  );
}
