"use client";

import { useEffect, useState } from "react";

/** The current time (ms), starting from the server's so the first render matches; then ticking. */
export function useNow(initial: number, everyMs = 30_000): number {
  const [now, setNow] = useState(initial);
  useEffect(() => {
    const tick = () => setNow(Date.now());
    // The first reading right after hydration, from a task so the hydrated frame is not re-rendered synchronously.
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, everyMs);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [everyMs]);
  return now;
}
