"use client";

import { useEffect, useState } from "react";

/**
 * True one frame after `shown` first becomes true: heavy, secondary panels (lanes, findings) wait
 * until the meter charts they accompany have been drawn, so a long run's charts appear first.
 */
export function useAfterFirstPaint(shown: boolean): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!shown || ready) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setReady(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [shown, ready]);
  return ready;
}
