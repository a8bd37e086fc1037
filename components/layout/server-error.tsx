"use client";

import { useEffect, useState } from "react";

type Cause = "checking" | "database" | "other";

/**
 * What a page shows when rendering it failed on the server. Production hides the error's text from
 * the browser, so the cause is asked of /api/v1/health: 503 there means the database is down or
 * hung, and the page says so (and that it will work again once the database is back).
 */
export function ServerError({ digest, retry }: { digest?: string; retry?: () => void }) {
  const [cause, setCause] = useState<Cause>("checking");
  useEffect(() => {
    let live = true;
    fetch("/api/v1/health", { cache: "no-store" })
      .then((response) => live && setCause(response.status === 503 ? "database" : "other"))
      .catch(() => live && setCause("other"));
    return () => {
      live = false;
    };
  }, []);

  return (
    <div className="not-found" role="alert">
      <p className="eyebrow">{cause === "database" ? "503" : "Error"}</p>
      <h1>{cause === "database" ? "The database is unavailable" : "This page could not be shown"}</h1>
      <p className="muted">
        {cause === "database"
          ? "Cuescope cannot reach its database right now (it is down, busy or not answering). Nothing is lost: the page works again as soon as the database is back."
          : "Something went wrong on the server while preparing this page. It has been logged."}
        {digest ? ` Reference: ${digest}.` : ""}
      </p>
      {retry ? (
        <p>
          <button type="button" className="button" onClick={() => retry()}>
            Try again
          </button>
        </p>
      ) : null}
    </div>
  );
}
