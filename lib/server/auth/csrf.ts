import { DomainError } from "@/lib/server/errors";
import { requestOrigin, type HeaderSource } from "./client-address";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

/**
 * CSRF (issue #10): a state-changing request that a browser authenticated with its cookie must
 * come from this app's own pages. The browser says where the request was made:
 * - `Sec-Fetch-Site` (set by the browser, pages cannot forge it): must be `same-origin`;
 * - else `Origin`: must equal this server's own origin (Host + scheme, see client-address.ts);
 * - neither: refused (every current browser sends at least one on a POST).
 * Throws `forbidden` (403) naming the reason. SameSite=Lax alone does not stop a form posted from
 * another port of the same host (same site, different origin): that is what this catches.
 */
export function assertSameOrigin(headers: HeaderSource, what = "a cookie-authenticated request that changes data"): void {
  const fetchSite = headers.get("sec-fetch-site")?.trim().toLowerCase();
  if (fetchSite) {
    if (fetchSite === "same-origin") return;
    throw new DomainError(
      "forbidden",
      `cross-origin request refused: ${what} must come from this app's own pages (Sec-Fetch-Site: ${fetchSite})`,
    );
  }
  const origin = headers.get("origin")?.trim();
  const own = requestOrigin(headers);
  if (!origin) {
    throw new DomainError(
      "forbidden",
      `cross-origin request refused: ${what} must say where it comes from (no Origin or Sec-Fetch-Site header); use a Bearer key for scripts`,
    );
  }
  if (origin.toLowerCase() !== own) {
    throw new DomainError(
      "forbidden",
      `cross-origin request refused: ${what} must come from this app's own pages (Origin ${origin} is not ${own ?? "this server"}; behind an https proxy, set CUESCOPE_TRUST_PROXY)`,
    );
  }
}
