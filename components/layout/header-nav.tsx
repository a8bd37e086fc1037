"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useRef, useState } from "react";
import { AccountItems, type PersonAccount } from "./account-items";
import { BrandMark } from "./brand-mark";
import { HeaderMenu } from "./header-menu";
import { KeyboardHelp } from "./keyboard-help";
import { applyTheme, type Theme } from "./theme";

const SECTIONS = [
  { name: "Runs", href: "/runs" },
  { name: "Reviewer", href: "/reviewer" },
  { name: "Trends", href: "/trends" },
  { name: "Alerts", href: "/alerts" },
  { name: "Experiments", href: "/experiments" },
  { name: "Copy", href: "/copy" },
  { name: "Audit", href: "/audit" },
  { name: "API", href: "/docs/api" },
] as const;

const isCurrent = (pathname: string, href: string) => pathname === href || pathname.startsWith(`${href}/`);

/**
 * The main navigation. Wide screens show the section links and a user menu (theme, Sign out);
 * below 720 px (app/globals.css) one "Menu" button holds both. Only one of the two is displayed at
 * a time, so each link and button has one accessible instance on screen.
 */
export function HeaderNav({
  signedIn,
  theme: initialTheme,
  signOut,
  person = null,
}: {
  signedIn: boolean;
  theme: Theme;
  signOut: () => Promise<void>;
  /** The signed-in person (not a key's session), with their projects. */
  person?: PersonAccount | null;
}) {
  const pathname = usePathname() ?? "";
  const [theme, setTheme] = useState(initialTheme);
  const chooseTheme = (next: Theme) => {
    setTheme(next);
    applyTheme(next);
  };
  const openHelp = useRef<((from?: HTMLElement) => void) | null>(null);
  const account = (
    <AccountItems
      theme={theme}
      onTheme={chooseTheme}
      signOut={signedIn ? signOut : undefined}
      person={person}
      onShortcuts={(button) => openHelp.current?.(button)}
    />
  );
  const links = (onNavigate?: () => void) =>
    SECTIONS.map(({ name, href }) => (
      <li key={name}>
        <Link href={href} className="nav-item" aria-current={isCurrent(pathname, href) ? "page" : undefined} onClick={onNavigate}>
          {name}
        </Link>
      </li>
    ));

  return (
    <nav aria-label="Main" className="site-nav">
      <Link href="/" className="brand">
        <BrandMark />
        <span>Cuescope</span>
      </Link>
      <ul className="nav-list nav-wide">{links()}</ul>
      <HeaderMenu label={signedIn ? "Account" : "Theme"} className="nav-wide nav-end">
        {() => account}
      </HeaderMenu>
      <HeaderMenu label="Menu" className="nav-narrow nav-end" panelClassName="nav-sheet">
        {(close) => (
          <>
            <ul className="nav-sheet-links">{links(close)}</ul>
            {account}
          </>
        )}
      </HeaderMenu>
      <KeyboardHelp openRef={openHelp} />
    </nav>
  );
}
