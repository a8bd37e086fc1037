import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Whether a webhook URL someone typed may be called by the server (server-side request forgery):
 * checked when the URL is saved and again before each delivery. It refuses what the URL alone
 * shows: another protocol, credentials, an absurd length, the server itself, and literal private
 * addresses. A host NAME is not resolved here: it may point anywhere by the time an alert fires
 * (DNS rebinding), so postWebhook's connection refuses private addresses after its own lookup.
 */

/** The operator's setting that lets webhooks reach private, loopback and link-local addresses. */
const ALLOW_PRIVATE_SETTING = "CUESCOPE_WEBHOOK_ALLOW_PRIVATE";
/** Longer URLs are refused: no receiver needs one, and they bloat every stored delivery. */
export const WEBHOOK_URL_MAX_CHARS = 2000;

export type WebhookTargetCheck = { ok: true; url: URL } | { ok: false; error: string };

export interface WebhookTargetOptions {
  /** CUESCOPE_WEBHOOK_ALLOW_PRIVATE: private, loopback and link-local targets are allowed (the server itself never is). */
  allowPrivate: boolean;
  /** Origins that are this server (its public URL, the request's own origin); unparseable entries are ignored. */
  selfOrigins: readonly string[];
  /** The port the server listens on: a loopback or unspecified host on this port is the server itself. */
  selfPort?: number;
}

/** The webhook URL `raw` parsed, or why it may not be called (a sentence for the person who typed it). */
export function checkWebhookTarget(raw: string, options: WebhookTargetOptions): WebhookTargetCheck {
  const text = raw.trim();
  if (text === "") return refuse("the webhook URL is empty");
  if (text.length > WEBHOOK_URL_MAX_CHARS) {
    return refuse(`the webhook URL is ${text.length.toLocaleString("en")} characters long; at most 2,000 are allowed`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse("the webhook URL is not a valid absolute URL (like https://example.com/hooks/cuescope)");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return refuse(`the webhook URL must be http or https, not ${url.protocol}`);
  }
  if (url.username !== "" || url.password !== "") {
    return refuse("the webhook URL must not contain a user name or password; put a token in its path or query instead");
  }

  const host = hostKind(url.hostname);
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
  const self =
    selfOrigins(options.selfOrigins).has(url.origin) ||
    ((host.kind === "loopback" || host.kind === "unspecified") && options.selfPort !== undefined && port === options.selfPort);
  if (self) {
    // Never allowed: an alert that calls this server could call it again, and it reaches routes meant for people.
    return refuse(`the webhook URL points at this Cuescope server itself (${url.origin}); use a receiver elsewhere`);
  }
  if (host.kind !== "public" && !options.allowPrivate) {
    return refuse(
      `the webhook URL's host ${url.hostname} is ${host.words}; such targets are refused unless the operator sets ${ALLOW_PRIVATE_SETTING}=true`,
    );
  }
  return { ok: true, url };
}

function refuse(error: string): WebhookTargetCheck {
  return { ok: false, error };
}

/** The origins of `origins` as URL.origin spells them (so `HTTP://Host:80/x` matches `http://host`). */
function selfOrigins(origins: readonly string[]): Set<string> {
  const parsed = new Set<string>();
  for (const origin of origins) {
    try {
      parsed.add(new URL(origin).origin);
    } catch {
      // Not a URL (an unset setting): it names no origin.
    }
  }
  return parsed;
}

/** What a host is: a name (resolved later) or a literal address ipaddr.js gives a range, with words for an error. */
type HostKind =
  { kind: "public" } | { kind: "loopback"; words: string } | { kind: "unspecified"; words: string } | { kind: "special"; words: string };

/** Words for ipaddr.js's ranges (its `range()`); any other range than "unicast" is special. */
const RANGE_WORDS: Record<string, string> = {
  private: "a private address",
  loopback: "a loopback address",
  linkLocal: "a link-local address",
  uniqueLocal: "a unique-local address",
  carrierGradeNat: "a carrier-grade NAT address",
  unspecified: "the unspecified address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  reserved: "a reserved address",
};

/** Cloud instance metadata (AWS, GCP, Azure…): the classic target of request forgery. */
const METADATA_ADDRESSES = new Set(["169.254.169.254", "fd00:ec2::254"]);

/**
 * A URL's hostname (already normalised by URL: IPv4 in dotted decimal, IPv6 bracketed and
 * compressed, lower case) as a HostKind. Names are public except `localhost` and `*.localhost`,
 * which resolve to loopback by definition (RFC 6761).
 */
function hostKind(hostname: string): HostKind {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  if (isIP(bare) === 0) {
    const name = bare.replace(/\.$/, "").toLowerCase();
    if (name === "localhost" || name.endsWith(".localhost")) return { kind: "loopback", words: "a loopback name" };
    return { kind: "public" };
  }
  // ipaddr.process turns ::ffff:a.b.c.d into a.b.c.d, which is what the address reaches: judge that.
  const address = ipaddr.process(bare);
  const mapped = isIP(bare) === 6 && address.kind() === "ipv4" ? ` (IPv4-mapped ${address.toString()})` : "";
  if (mapped !== "" && address.range() === "unicast") {
    // The connection refuses the mapped form whatever it holds (request-filtering-agent), so this check does too.
    return { kind: "special", words: `an IPv4-mapped IPv6 address; write ${address.toString()} itself` };
  }
  const range = address.range();
  if (range === "unicast") return { kind: "public" };
  if (METADATA_ADDRESSES.has(address.toString())) return { kind: "special", words: `the cloud metadata address${mapped}` };
  const words = `${RANGE_WORDS[range] ?? `a special-purpose address (${range})`}${mapped}`;
  if (range === "loopback") return { kind: "loopback", words };
  if (range === "unspecified") return { kind: "unspecified", words };
  return { kind: "special", words };
}
