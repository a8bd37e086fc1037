"use client";

import { useEffect, useId, useRef, useState } from "react";
import { formatTurn } from "@/lib/format";
import { turnShareUrl } from "@/lib/run-view/turn-window";
import styles from "./copy-link.module.css";

type State = { kind: "idle" } | { kind: "copied" } | { kind: "manual"; url: string };

/**
 * "Copy link" (keyed by the turn, so another turn starts without the old confirmation): puts the absolute URL of this turn at the current zoom on the clipboard and says
 * "Copied". When the browser refuses the clipboard, the link shows in a selected field to copy by hand.
 */
export function CopyLinkButton({ turn }: { turn: number }) {
  const [state, setState] = useState<State>({ kind: "idle" });
  const field = useRef<HTMLInputElement>(null);
  const id = useId();

  useEffect(() => {
    if (state.kind === "manual") field.current?.select();
    if (state.kind !== "copied") return;
    const timer = window.setTimeout(() => setState({ kind: "idle" }), 4000);
    return () => window.clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    const url = turnShareUrl(window.location.origin, window.location.pathname, window.location.search, turn);
    try {
      if (!navigator.clipboard?.writeText) throw new Error("no clipboard");
      await navigator.clipboard.writeText(url);
      setState({ kind: "copied" });
    } catch {
      setState({ kind: "manual", url });
    }
  };

  return (
    <div className={styles.copy}>
      <button type="button" className={styles.button} onClick={() => void copy()} aria-describedby={`${id}-status`}>
        <LinkIcon /> Copy link
      </button>
      <span id={`${id}-status`} aria-live="polite" className={styles.status}>
        {state.kind === "copied" ? `Copied: a link to ${formatTurn(turn)} at this zoom` : ""}
      </span>
      {state.kind === "manual" ? (
        <div className={styles.manual}>
          <label htmlFor={`${id}-url`}>The browser did not allow copying; copy this link:</label>
          <input id={`${id}-url`} ref={field} readOnly value={state.url} onFocus={(event) => event.currentTarget.select()} />
        </div>
      ) : null}
    </div>
  );
}

/** A chain-link icon drawn inline: the 🔗 glyph is missing from common fonts (DejaVu) and showed as an empty box. */
function LinkIcon() {
  return (
    <svg
      className={styles.icon}
      aria-hidden="true"
      focusable="false"
      width="12"
      height="12"
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M6.5 9.5a3 3 0 0 0 4.2 0l2.6-2.6a3 3 0 0 0-4.2-4.2L8 3.8" />
      <path d="M9.5 6.5a3 3 0 0 0-4.2 0L2.7 9.1a3 3 0 0 0 4.2 4.2L8 12.2" />
    </svg>
  );
}
