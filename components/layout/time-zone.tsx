"use client";

import { createContext, useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from "react";
import { formatInstantIn, LOCAL_CHOICE, LOCAL_TZ_COOKIE, resolveZone, TZ_COOKIE, zoneCookie } from "@/lib/format/zone";

interface TimeZoneState {
  /** "local" (the browser's zone) or a zone the user picked. */
  choice: string;
  /** The zone the choice stands for: what absolute times and the trends' days are written in. */
  zone: string;
  /** The browser's own zone (as far as known yet). */
  localZone: string;
  choose: (choice: string) => void;
}

const TimeZoneContext = createContext<TimeZoneState>({ choice: LOCAL_CHOICE, zone: "UTC", localZone: "UTC", choose: () => {} });

const noSubscription = () => () => {};

/** The browser's zone, "UTC" when it says none. */
function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/**
 * The user's time zone for the whole app. The server renders with the choice and the browser zone
 * remembered in cookies (lib/format/zone.ts), so the first paint agrees with the browser; once
 * mounted the browser's own zone is read and remembered for the next render.
 */
export function TimeZoneProvider({
  choice: initialChoice,
  localZone: initialLocal,
  children,
}: {
  choice: string;
  localZone: string | null;
  children: ReactNode;
}) {
  const [choice, setChoice] = useState(initialChoice);
  // The server's idea of the browser zone while hydrating, the browser's own after.
  const localZone = useSyncExternalStore(noSubscription, browserZone, () => initialLocal ?? "UTC");
  useEffect(() => {
    if (localZone !== initialLocal) document.cookie = zoneCookie(LOCAL_TZ_COOKIE, localZone, location.protocol === "https:");
  }, [localZone, initialLocal]);
  const choose = useCallback((next: string) => {
    document.cookie = zoneCookie(TZ_COOKIE, next, location.protocol === "https:");
    setChoice(next);
  }, []);
  const value = useMemo(() => ({ choice, zone: resolveZone(choice, localZone), localZone, choose }), [choice, localZone, choose]);
  return <TimeZoneContext.Provider value={value}>{children}</TimeZoneContext.Provider>;
}

/** The user's time zone (UTC outside a TimeZoneProvider, as in component tests). */
export function useTimeZone(): TimeZoneState {
  return useContext(TimeZoneContext);
}

/** Writes an instant in the user's zone, the zone named ("2026-11-29 11:02:05 Europe/Paris"). */
export function useFormatInstant(): (iso: string) => string {
  const { zone } = useTimeZone();
  return useCallback((iso: string) => formatInstantIn(iso, zone), [zone]);
}
