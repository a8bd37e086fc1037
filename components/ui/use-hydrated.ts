"use client";

import { useSyncExternalStore } from "react";

const subscribeNever = () => () => {};
const onClient = () => true;
const onServer = () => false;

/**
 * False in the server's HTML and while hydrating, true once hydrated (React renders again then).
 * Interactive parts mark themselves with it (`data-hydrated`), so a test — or a person on a slow
 * machine — does not act on a control whose handler is not attached yet.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(subscribeNever, onClient, onServer);
}
