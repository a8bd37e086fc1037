import { formatNumber } from "./number";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * An instant (ISO 8601) written out in UTC, the same on the server and in every browser:
 * `formatInstant("2026-11-29T10:02:05.120Z")` → "2026-11-29 10:02:05 UTC".
 */
export function formatInstant(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "–";
  return `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/**
 * How long before `now` (ms) an instant was: "just now", "12 min ago", "5 h ago", "3 d ago"; past
 * 60 days the UTC date ("2026-11-29"). An instant after `now` (clock skew) reads "just now".
 */
export function formatRelative(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return "–";
  const ago = now - at;
  if (ago < MINUTE) return "just now";
  if (ago < HOUR) return `${formatNumber(Math.floor(ago / MINUTE))} min ago`;
  if (ago < DAY) return `${formatNumber(Math.floor(ago / HOUR))} h ago`;
  if (ago < 60 * DAY) return `${formatNumber(Math.floor(ago / DAY))} d ago`;
  return new Date(at).toISOString().slice(0, 10);
}
