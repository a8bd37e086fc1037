import { env } from "@/lib/server/env";

/**
 * Where a request comes from and which origin it was sent to, decided only from what this server
 * can trust (issue #10):
 *
 * - Under `npm start` the app runs inside scripts/server.mjs, which removes any client-sent copy of
 *   a private header (its name, random per process, is in `CUESCOPE_PEER_HEADER`) and sets it to the
 *   TCP peer's address. Without that server (`next dev`, tests) the peer is unknown.
 * - `X-Forwarded-For` / `-Host` / `-Proto` are client-controlled and ignored, unless the operator
 *   opts in with `CUESCOPE_TRUST_PROXY=<hops>` (e.g. `1` for one reverse proxy in front): the
 *   client address is then the entry that many hops from the right of `X-Forwarded-For`.
 */

/** What both `Request.headers` and Next's `headers()` offer. */
export interface HeaderSource {
  get(name: string): string | null;
}

/** The peer address an unknown or untrusted request is filed under (one shared rate-limit bucket). */
export const UNKNOWN_ADDRESS = "unknown";

export function trustedProxyHops(): number {
  return env("CUESCOPE_TRUST_PROXY");
}

/** The TCP peer as set by scripts/server.mjs, or undefined when the app does not run under it. */
export function trustedPeer(headers: HeaderSource): string | undefined {
  const name = env("CUESCOPE_PEER_HEADER");
  if (!name) return undefined;
  const value = headers.get(name)?.trim();
  return value ? value : undefined;
}

/**
 * Whether the request reached scripts/server.mjs carrying forwarding headers (X-Forwarded-For,
 * Forwarded, X-Real-IP) — i.e. through a proxy, or from a client pretending to be one.
 */
export function arrivedForwarded(headers: HeaderSource): boolean {
  const name = env("CUESCOPE_PEER_HEADER");
  return Boolean(name && headers.get(`${name}-forwarded`) === "1");
}

/** The client's address: the forwarded one behind a trusted proxy, else the TCP peer, else "unknown". */
export function clientAddress(headers: HeaderSource): string {
  const hops = trustedProxyHops();
  if (hops > 0) {
    const chain = (headers.get("x-forwarded-for") ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
    const forwarded = chain[chain.length - hops];
    if (forwarded) return normalizeAddress(forwarded);
  }
  const peer = trustedPeer(headers);
  return peer ? normalizeAddress(peer) : UNKNOWN_ADDRESS;
}

/** `::ffff:127.0.0.1` → `127.0.0.1`; brackets and zone ids dropped. */
export function normalizeAddress(address: string): string {
  let a = address.trim().toLowerCase();
  if (a.startsWith("[") && a.includes("]")) a = a.slice(1, a.indexOf("]"));
  const zone = a.indexOf("%");
  if (zone >= 0) a = a.slice(0, zone);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  return mapped ? mapped[1] : a;
}

/** 127.0.0.0/8 and ::1 (also IPv4-mapped); "unknown" is not loopback. */
export function isLoopback(address: string): boolean {
  const a = normalizeAddress(address);
  return /^127\.\d+\.\d+\.\d+$/.test(a) || a === "::1" || a === "0:0:0:0:0:0:0:1";
}

/** Whether the browser reached us over https (known only through a trusted proxy: this server speaks http). */
export function isHttps(headers: HeaderSource): boolean {
  if (trustedProxyHops() === 0) return false;
  return (headers.get("x-forwarded-proto") ?? "").split(",")[0].trim().toLowerCase() === "https";
}

/** The host (with its port) the browser addressed: Host, or the forwarded one behind a trusted proxy; lower-cased. */
export function requestHost(headers: HeaderSource): string | undefined {
  const trusted = trustedProxyHops() > 0;
  const host = ((trusted ? headers.get("x-forwarded-host")?.split(",")[0] : undefined) ?? headers.get("host") ?? "").trim();
  return host ? host.toLowerCase() : undefined;
}

/** This server's origin as the browser addressed it: scheme + Host (forwarded ones behind a trusted proxy). */
export function requestOrigin(headers: HeaderSource): string | undefined {
  const host = requestHost(headers);
  if (!host) return undefined;
  return `${isHttps(headers) ? "https" : "http"}://${host}`;
}

/** The address to record (the audit log, a session): undefined when this server cannot tell it. */
export function knownAddress(address: string): string | undefined {
  return address === UNKNOWN_ADDRESS ? undefined : address;
}
