import { env } from "@/lib/server/env";
import { isLoopback, requestHost, type HeaderSource } from "./client-address";

/**
 * DNS rebinding (issue 22): a page on `evil.example` whose name then resolves to 127.0.0.1 is,
 * for the browser, still the origin `evil.example` — so it may read what this server answers
 * there, and the demo project opens for any loopback connection. What the browser cannot hide is
 * the name it asked for: the `Host` header. So pages and browser sessions are served only under a
 * loopback name (localhost and its subdomains, 127.0.0.0/8, [::1]) or a host the operator lists in
 * `CUESCOPE_ALLOWED_HOSTS`; under any other Host the proxy (proxy.ts) refuses every page and
 * server action with 403, the API takes no session cookie (lib/server/auth/request-key.ts), and
 * sign-in sets no cookie (sign-in.ts). API keys (`Authorization: Bearer`) work under any Host: a
 * key is never in the browser of someone who did not paste it into their own client.
 * Behind a trusted proxy (CUESCOPE_TRUST_PROXY) the host is its X-Forwarded-Host.
 */

/** The host name of a Host value, without its port (`[::1]:3000` → `[::1]`, `LocalHost:80` → `localhost`). */
export function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith("[")) {
    const end = h.indexOf("]");
    return end < 0 ? h : h.slice(0, end + 1);
  }
  return h.replace(/:\d*$/, "");
}

/** localhost and *.localhost (RFC 6761: always this machine), 127.0.0.0/8 and [::1]. */
export function isLoopbackHost(name: string): boolean {
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  if (name.startsWith("[") && name.endsWith("]")) return isLoopback(name.slice(1, -1));
  return /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.test(name) && name.split(".").every((octet) => Number(octet) <= 255);
}

/** Whether pages and browser sessions may be served to a request addressed to this host. */
export function isAllowedHost(host: string): boolean {
  const name = hostName(host);
  return isLoopbackHost(name) || env("CUESCOPE_ALLOWED_HOSTS").includes(name);
}

/** Why this request gets no page, session or demo (its Host is neither loopback nor listed), or null when it may. */
export function hostRefusal(headers: HeaderSource): string | null {
  const host = requestHost(headers);
  if (host && isAllowedHost(host)) return null;
  const shown = host ? JSON.stringify(host.length > 100 ? `${host.slice(0, 100)}…` : host) : null;
  const named = shown ? `the host ${shown}` : "no host (the request has no Host header)";
  const fix = host
    ? ` If ${JSON.stringify(hostName(host).slice(0, 100))} is this server's own name, its operator adds it: CUESCOPE_ALLOWED_HOSTS=${hostName(host).slice(0, 100)} (comma-separated; see docs/operations.md).`
    : "";
  return `This Cuescope server serves pages and browser sessions only under a loopback name (localhost, 127.0.0.1, [::1]) or a host listed in CUESCOPE_ALLOWED_HOSTS, and this request was addressed to ${named} (a page from another site reaching this server under a name of its own, DNS rebinding, is refused this way).${fix} API keys (Authorization: Bearer) work under any host.`;
}

/** `hostRefusal` for a whole request: a request without a Host header (not a browser's) is judged by its URL's host. */
export function requestHostRefusal(request: Request): string | null {
  if (request.headers.get("host") !== null) return hostRefusal(request.headers);
  const fallback = new URL(request.url).host;
  return hostRefusal({ get: (name) => (name.toLowerCase() === "host" ? fallback : request.headers.get(name)) });
}
