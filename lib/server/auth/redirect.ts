/** Where to send the browser after sign-in when `next` is missing or not acceptable. */
export const DEFAULT_NEXT = "/runs";

/**
 * The `next` path after sign-in, only when it stays on this app: parsed as a URL against the app's
 * origin and accepted only if the origin is unchanged. The answer is always a path (`/…`), never an
 * absolute or protocol-relative URL. Refused (→ /runs): control characters and whitespace (URL
 * parsing would silently drop tabs and newlines), backslashes raw or percent-encoded (browsers read
 * `\` as `/`), `//host`, other schemes, and paths that would start with `//` after normalisation.
 */
export function safeNextPath(next: unknown, appOrigin = "http://cuescope.invalid"): string {
  if (typeof next !== "string" || next.length === 0 || next.length > 2048) return DEFAULT_NEXT;
  if (!next.startsWith("/")) return DEFAULT_NEXT;
  if (/[\u0000-\u0020\u007f-\u00a0\\]/.test(next)) return DEFAULT_NEXT;
  if (/%5c/i.test(next)) return DEFAULT_NEXT;
  let base: URL;
  let url: URL;
  try {
    base = new URL(appOrigin);
    url = new URL(next, base);
  } catch {
    return DEFAULT_NEXT;
  }
  if (url.origin !== base.origin) return DEFAULT_NEXT;
  if (url.pathname.startsWith("//") || url.pathname.startsWith("/\\")) return DEFAULT_NEXT;
  if (url.pathname === "/login") return DEFAULT_NEXT;
  return `${url.pathname}${url.search}${url.hash}`;
}
