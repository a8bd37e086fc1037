"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useId } from "react";
import type { TPersonRole } from "@/lib/contracts";
import { THEME_LABELS, THEMES, type Theme } from "./theme";
import { TimeZoneChoice } from "./time-zone-choice";

/** A signed-in person (lib/server/auth/person-session.ts), for the Account menu. */
export interface PersonAccount {
  name: string;
  email: string;
  projects: { projectId: string; project: string; role: TPersonRole }[];
  openProjectId: string | null;
  /** Server actions (lib/server/people/actions.ts). */
  switchProject: (form: FormData) => Promise<void>;
  signOutEverywhere: () => Promise<void>;
}

/**
 * The user menu's items: the theme (System, Light, Dark), the time zone, the keyboard help and,
 * when signed in, the members and API keys pages and Sign out; for a person also who they are, their
 * projects (to open another) and Sign out everywhere.
 */
export function AccountItems({
  theme,
  onTheme,
  signOut,
  person = null,
  onShortcuts,
}: {
  theme: Theme;
  onTheme: (theme: Theme) => void;
  /** Opens the keyboard help (also opened with `?`); the button is where the focus goes back to. */
  onShortcuts: (button: HTMLElement) => void;
  /** The sign-out server action (lib/server/auth/actions.ts), or nothing when not signed in. */
  signOut?: () => Promise<void>;
  person?: PersonAccount | null;
}) {
  const group = useId();
  const pathname = usePathname() ?? "/";
  return (
    <>
      {person ? (
        <div className="nav-person">
          <p>
            Signed in as <strong>{person.name}</strong> <span className="muted">({person.email})</span>
          </p>
          {person.projects.length > 1 ? (
            <ul aria-label="Your projects" className="nav-projects">
              {person.projects.map((p) => (
                <li key={p.projectId}>
                  {p.projectId === person.openProjectId ? (
                    <span aria-current="true">
                      {p.project} <span className="muted">· {p.role} · open</span>
                    </span>
                  ) : (
                    <form action={person.switchProject}>
                      <input type="hidden" name="projectId" value={p.projectId} />
                      <input type="hidden" name="next" value={pathname} />
                      <button type="submit" className="button button-quiet">
                        Open {p.project} <span className="muted">· {p.role}</span>
                      </button>
                    </form>
                  )}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
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
        <Link href="/members" className="button button-quiet">
          Members
        </Link>
      )}
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
      {signOut && person && (
        <form action={person.signOutEverywhere} className="nav-session">
          <button type="submit" className="button button-quiet">
            Sign out everywhere
          </button>
        </form>
      )}
    </>
  );
}
