"use client";

import { useEffect, useState } from "react";

/**
 * `value`, once it has stayed the same for `ms` (typing into a search box asks once it pauses).
 * `flush()` takes the current value at once (Enter).
 */
export function useDebounced<T>(value: T, ms: number): [T, () => void] {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return [settled, () => setSettled(value)];
}
