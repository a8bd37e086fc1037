"use client";

import { ServerError } from "@/components/layout/server-error";
import "./globals.css";

/** The root layout itself failed: the same explanation, in a page of its own. */
export default function GlobalError({ error, retry, reset }: { error: unknown; retry?: () => void; reset?: () => void }) {
  const digest = error instanceof Error ? (error as Error & { digest?: string }).digest : undefined;
  return (
    <html lang="en">
      <body>
        <main className="page">
          <ServerError digest={digest} retry={retry ?? reset} />
        </main>
      </body>
    </html>
  );
}
