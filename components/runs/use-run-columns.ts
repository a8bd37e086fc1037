"use client";

import { useCallback, useSyncExternalStore } from "react";
import { DEFAULT_COLUMN_IDS, RUN_COLUMNS } from "./run-columns";

/** Where the runs table's chosen columns are remembered (this browser only). */
export const COLUMNS_STORAGE_KEY = "cuescope.runs.columns";

const listeners = new Set<() => void>();

function read(): string | null {
  try {
    return window.localStorage.getItem(COLUMNS_STORAGE_KEY);
  } catch {
    return null; // storage refused (private mode, a policy): the default columns
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === COLUMNS_STORAGE_KEY) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** The stored choice as column ids known today (unknown ids from an older version are dropped). */
function parse(text: string | null): readonly string[] {
  if (text === null) return DEFAULT_COLUMN_IDS;
  try {
    const ids = JSON.parse(text) as unknown;
    if (!Array.isArray(ids)) return DEFAULT_COLUMN_IDS;
    return RUN_COLUMNS.filter((c) => c.fixed || ids.includes(c.id)).map((c) => c.id);
  } catch {
    return DEFAULT_COLUMN_IDS;
  }
}

const cache = new Map<string | null, readonly string[]>();
function parsed(text: string | null): readonly string[] {
  if (!cache.has(text)) cache.set(text, parse(text));
  return cache.get(text)!;
}

/**
 * The runs table's shown columns, remembered in localStorage; the server and the first paint show
 * the default columns, then the stored choice (useSyncExternalStore's server snapshot).
 */
export function useRunColumns() {
  const columns = useSyncExternalStore(
    subscribe,
    () => parsed(read()),
    () => DEFAULT_COLUMN_IDS,
  );
  const setShown = useCallback((id: string, shown: boolean) => {
    const current = parsed(read());
    const next = RUN_COLUMNS.filter((c) => c.fixed || (c.id === id ? shown : current.includes(c.id))).map((c) => c.id);
    try {
      window.localStorage.setItem(COLUMNS_STORAGE_KEY, JSON.stringify(next));
    } catch {
      // not remembered; nothing else to do
    }
    for (const listener of listeners) listener();
  }, []);
  const reset = useCallback(() => {
    try {
      window.localStorage.removeItem(COLUMNS_STORAGE_KEY);
    } catch {
      // nothing stored
    }
    for (const listener of listeners) listener();
  }, []);
  return { columns, setShown, reset };
}
