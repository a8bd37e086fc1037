import type { Metadata, Viewport } from "next";
import { cookies } from "next/headers";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/layout/site-header";
import { MAIN_ID, SkipLinks } from "@/components/layout/skip-links";
import { parseTheme, THEME_COOKIE } from "@/components/layout/theme";
import { isKnownZone, LOCAL_TZ_COOKIE, parseZoneChoice, TZ_COOKIE } from "@/lib/format/zone";
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

export default async function RootLayout({ children }: { children: ReactNode }) {
  const jar = await cookies();
  const signedIn = jar.has(SESSION_COOKIE);
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
          <SiteHeader signedIn={signedIn} theme={theme} />
          <main id={MAIN_ID} tabIndex={-1} className="page">
            {children}
          </main>
          <footer className="site-footer">Cuescope · telemetry format v1 · decisions are rebuilt from raw events, never edited</footer>
        </Providers>
      </body>
    </html>
  );
}
