"use client";

import Link from "next/link";
import { useId } from "react";
import { THEME_LABELS, THEMES, type Theme } from "./theme";
import { TimeZoneChoice } from "./time-zone-choice";

/** The user menu's items: the theme (System, Light, Dark), the time zone, the keyboard help and, when signed in, the API keys page and Sign out. */
export function AccountItems({
  theme,
  onTheme,
  signOut,
  onShortcuts,
}: {
  theme: Theme;
  onTheme: (theme: Theme) => void;
  /** Opens the keyboard help (also opened with `?`); the button is where the focus goes back to. */
  onShortcuts: (button: HTMLElement) => void;
  /** The sign-out server action (lib/server/auth/actions.ts), or nothing when not signed in. */
  signOut?: () => Promise<void>;
}) {
  const group = useId();
  return (
    <>
      <fieldset className="theme-choice">
        <legend>Theme</legend>
        {THEMES.map((option) => (
          <label key={option}>
            <input type="radio" name={group} value={option} checked={theme === option} onChange={() => onTheme(option)} />
            {THEME_LABELS[option]}
          </label>
        ))}
      </fieldset>
      <TimeZoneChoice />
      <button type="button" className="button button-quiet" onClick={(event) => onShortcuts(event.currentTarget)} aria-keyshortcuts="?">
        Keyboard shortcuts <kbd aria-hidden="true">?</kbd>
      </button>
      {signOut && (
        <Link href="/keys" className="button button-quiet">
          API keys
        </Link>
      )}
      {signOut && (
        <form action={signOut} className="nav-session">
          <button type="submit" className="button button-quiet">
            Sign out
          </button>
        </form>
      )}
    </>
  );
}
