"use client";

import { ServerError } from "@/components/layout/server-error";

/** A page that failed to render (a database outage, say): says why, offers to try again; the layout stays. */
export default function PageError({ error, retry, reset }: { error: unknown; retry?: () => void; reset?: () => void }) {
  const digest = error instanceof Error ? (error as Error & { digest?: string }).digest : undefined;
  return <ServerError digest={digest} retry={retry ?? reset} />;
}
