"use client";

import { useEffect, useState } from "react";

/** The current time (ms), starting from the server's so the first render matches; then ticking. */
export function useNow(initial: number, everyMs = 30_000): number {
  const [now, setNow] = useState(initial);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
