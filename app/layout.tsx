import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { SiteHeader } from "../components/layout/site-header";
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

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>
          <SiteHeader />
          <main className="page">{children}</main>
          <footer className="site-footer">
            Cuescope · telemetry format v1 · decisions are rebuilt from raw events, never edited
          </footer>
        </Providers>
      </body>
    </html>
  );
}
