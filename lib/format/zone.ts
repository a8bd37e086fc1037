/**
 * Time zones: the user's choice (the Account menu's "Time zone", kept in the `cuescope-tz` cookie)
 * and instants and days written in a zone, with the zone named. Every real-world offset is a
 * multiple of 15 minutes, which is why the trends' 15-minute buckets make exact days in any zone.
 */

/** The choice cookie: "local" (the browser's zone, the default), "UTC" or an IANA zone. */
export const TZ_COOKIE = "cuescope-tz";
/** The browser's own zone, written by the browser so the server renders "local" as the browser would. */
export const LOCAL_TZ_COOKIE = "cuescope-local-tz";
export const LOCAL_CHOICE = "local";
const ONE_YEAR_S = 365 * 24 * 60 * 60;

/**
 * The wall-clock formatter of each zone, made once: making an Intl.DateTimeFormat costs far more
 * than formatting with one, and every page writes instants in the reader's zone. Only zones the
 * runtime knows are kept (a few hundred at most).
 */
const clocks = new Map<string, Intl.DateTimeFormat>();

function clockOf(zone: string): Intl.DateTimeFormat {
  let clock = clocks.get(zone);
  if (!clock) {
    clock = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    clocks.set(zone, clock);
  }
  return clock;
}

/** Whether `zone` is an IANA time zone (or UTC) this runtime knows. */
export function isKnownZone(zone: string | undefined | null): zone is string {
  if (!zone || zone.length > 64) return false;
  if (clocks.has(zone)) return true;
  try {
    clockOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** A cookie's value as a choice: "local", or a known zone; anything else (missing, edited by hand) is "local". */
export function parseZoneChoice(value: string | undefined | null): string {
  return value && value !== LOCAL_CHOICE && isKnownZone(value) ? value : LOCAL_CHOICE;
}

/** The zone a choice stands for: the zone itself, or for "local" the browser's zone (UTC when unknown). */
export function resolveZone(choice: string, localZone: string | undefined | null): string {
  if (choice !== LOCAL_CHOICE) return choice;
  return isKnownZone(localZone) ? localZone : "UTC";
}

/** The `document.cookie` assignment that keeps a cookie for a year. */
export function zoneCookie(name: typeof TZ_COOKIE | typeof LOCAL_TZ_COOKIE, value: string, secure: boolean): string {
  return `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${ONE_YEAR_S}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** The parts of an instant's wall-clock time in a zone. */
function wallClock(ms: number, zone: string): Record<"year" | "month" | "day" | "hour" | "minute" | "second", string> {
  const parts = clockOf(zone).formatToParts(ms);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "00";
  return { year: get("year"), month: get("month"), day: get("day"), hour: get("hour"), minute: get("minute"), second: get("second") };
}

/**
 * An instant (ISO 8601) written in a zone, the zone named: "2026-11-29 11:02:05 Europe/Paris";
 * in UTC "2026-11-29 10:02:05 UTC" (what formatInstant writes).
 */
export function formatInstantIn(iso: string, zone: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return "–";
  const c = wallClock(ms, zone);
  return `${c.year}-${c.month}-${c.day} ${c.hour}:${c.minute}:${c.second} ${zone === "Etc/UTC" ? "UTC" : zone}`;
}

/** The day (YYYY-MM-DD) an instant falls on in a zone. */
export function dayIn(ms: number, zone: string): string {
  const c = wallClock(ms, zone);
  return `${c.year}-${c.month}-${c.day}`;
}

/** The day `days` after (or before) a YYYY-MM-DD day. */
export function shiftDay(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** A zone's name with its offset at an instant, for a choice list: "Asia/Kolkata (GMT+5:30)". */
export function zoneLabel(zone: string, at: number): string {
  const name = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "shortOffset" })
    .formatToParts(at)
    .find((p) => p.type === "timeZoneName")?.value;
  return name ? `${zone} (${name})` : zone;
}
