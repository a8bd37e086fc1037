import type { Metadata, Viewport } from "next";
import { cookies, headers } from "next/headers";
import type { ReactNode } from "react";
import { SiteHeader, type PersonInHeader } from "@/components/layout/site-header";
import { MAIN_ID, SkipLinks } from "@/components/layout/skip-links";
import { parseTheme, THEME_COOKIE } from "@/components/layout/theme";
import { isKnownZone, LOCAL_TZ_COOKIE, parseZoneChoice, TZ_COOKIE } from "@/lib/format/zone";
import { PERSON_SESSION_COOKIE } from "@/lib/server/auth/person-cookie";
import { personProjects, PROJECT_COOKIE, sessionPerson } from "@/lib/server/auth/person-session";
import { getDb } from "@/lib/server/db";
import { SESSION_COOKIE } from "@/lib/server/auth/request-key";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Cuescope", template: "%s · Cuescope" },
  description:
    "Observe and audit the action reminders LLM agents receive: meters, stages, delivery and Reviewer dispatches, rebuilt turn by turn.",
  icons: { icon: { url: "/favicon.svg", type: "image/svg+xml" } },
};

export const viewport: Viewport = {
  themeColor: "#1f3a5f",
};

/** The signed-in person and their projects for the Account menu; null when the session is gone (the page signs them in again). */
async function personInHeader(): Promise<PersonInHeader | null> {
  try {
    const db = await getDb();
    const person = await sessionPerson(db, new Headers(await headers()));
    if (!person) return null;
    const projects = await personProjects(db, person.id);
    const wanted = (await cookies()).get(PROJECT_COOKIE)?.value;
    const open = projects.find((p) => p.projectId === wanted) ?? projects[0];
    return { name: person.name, email: person.email, projects, openProjectId: open?.projectId ?? null };
  } catch {
    // The database is down or slow: the header still renders; the page says what is wrong.
    return null;
  }
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const jar = await cookies();
  const person = jar.has(PERSON_SESSION_COOKIE) || jar.has(`__Secure-${PERSON_SESSION_COOKIE}`);
  const signedIn = jar.has(SESSION_COOKIE) || person;
  // The theme is rendered into the page (no flash of the other one); "system" leaves it to the OS.
  const theme = parseTheme(jar.get(THEME_COOKIE)?.value);
  // The time zone chosen (default: the browser's, remembered by the browser in a cookie).
  const localZone = decodeURIComponent(jar.get(LOCAL_TZ_COOKIE)?.value ?? "");
  const tz = {
    choice: parseZoneChoice(decodeURIComponent(jar.get(TZ_COOKIE)?.value ?? "")),
    localZone: isKnownZone(localZone) ? localZone : null,
  };
  return (
    <html lang="en" data-theme={theme}>
      <body>
        <Providers tz={tz}>
          <SkipLinks />
          <SiteHeader signedIn={signedIn} person={person && !jar.has(SESSION_COOKIE) ? await personInHeader() : null} theme={theme} />
          <main id={MAIN_ID} tabIndex={-1} className="page">
            {children}
          </main>
          <footer className="site-footer">Cuescope · telemetry format v1 · decisions are rebuilt from raw events, never edited</footer>
        </Providers>
      </body>
    </html>
  );
}
