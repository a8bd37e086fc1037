import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * How an alert webhook is signed, so its receiver can tell it came from this Cuescope and was not
 * replayed: the sender signs `<unix seconds>.<raw body>` with HMAC-SHA256 under the webhook's
 * secret, and sends the seconds, the signature and the delivery's id in three headers. The same
 * scheme as Stripe's and Slack's, so receivers know the recipe:
 *
 *   X-Cuescope-Timestamp: 1700000000
 *   X-Cuescope-Signature: v1=<hex HMAC-SHA256(secret, "1700000000." + body)>
 *   X-Cuescope-Delivery:  <delivery id, the same on every retry of one delivery>
 *
 * While a secret is rotated the signature header holds one `v1=` value per secret, comma-separated;
 * a receiver accepts the delivery if any of them matches a secret it knows.
 */

/** Unix seconds when the delivery was signed (each attempt signs again, with its own time). */
export const WEBHOOK_TIMESTAMP_HEADER = "X-Cuescope-Timestamp";
/** `v1=<hex>`, one per secret in use, comma-separated. */
export const WEBHOOK_SIGNATURE_HEADER = "X-Cuescope-Signature";
/** The delivery's id: constant across retries, so a receiver can drop a duplicate. */
export const WEBHOOK_DELIVERY_HEADER = "X-Cuescope-Delivery";
/** The user agent every webhook request sends. */
export const WEBHOOK_USER_AGENT = "Cuescope-Webhook/1";

/** The scheme's version prefix; a receiver ignores values with another prefix (a later scheme). */
const SCHEME = "v1";
/** A v1 signature's hex: SHA-256 is 32 bytes. */
const HEX_SIGNATURE = /^[0-9a-f]{64}$/i;

/** The signature value `v1=<hex>` of a body sent at `timestamp` (unix seconds) under `secret`. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `${SCHEME}=${hmacHex(secret, timestamp, body)}`;
}

function hmacHex(secret: string, timestamp: number | string, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex");
}

/**
 * The headers of one webhook request: JSON, the user agent and the three signing headers. Several
 * secrets (a rotation: the new one and the old one) give one `v1=` value each.
 */
export function webhookHeaders(secret: string | readonly string[], deliveryId: string, body: string, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  const secrets = typeof secret === "string" ? [secret] : secret;
  return {
    "Content-Type": "application/json",
    "User-Agent": WEBHOOK_USER_AGENT,
    [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
    [WEBHOOK_SIGNATURE_HEADER]: secrets.map((one) => signWebhook(one, timestamp, body)).join(","),
    [WEBHOOK_DELIVERY_HEADER]: deliveryId,
  };
}

export type WebhookVerdict = { ok: true } | { ok: false; reason: string };

/**
 * A receiver's check of a webhook (ours, in tests and the docs' example; anyone's in TypeScript):
 * the timestamp must be whole seconds within `toleranceSeconds` of `now` either way (an old
 * request replayed, or a clock far off, is refused), and one of the header's `v1=` values must be
 * the HMAC of `<timestamp>.<body>` under one of the secrets (compared in constant time). `body` is
 * the raw body as received, before any JSON parsing.
 */
export function verifyWebhook(input: {
  secret: string | readonly string[];
  body: string;
  timestamp: string | number | null | undefined;
  signature: string | null | undefined;
  now: Date;
  toleranceSeconds?: number;
}): WebhookVerdict {
  const { body, now, toleranceSeconds = 300 } = input;
  const secrets = typeof input.secret === "string" ? [input.secret] : input.secret;
  if (input.timestamp === null || input.timestamp === undefined || input.timestamp === "") {
    return { ok: false, reason: `the ${WEBHOOK_TIMESTAMP_HEADER} header is missing` };
  }
  const timestampText = String(input.timestamp).trim();
  if (!/^\d{1,12}$/.test(timestampText)) {
    return { ok: false, reason: `the ${WEBHOOK_TIMESTAMP_HEADER} header is not unix seconds: ${JSON.stringify(timestampText)}` };
  }
  const timestamp = Number(timestampText);
  const age = Math.floor(now.getTime() / 1000) - timestamp;
  if (age > toleranceSeconds) {
    return { ok: false, reason: `the timestamp is ${age} s old, more than the ${toleranceSeconds} s allowed` };
  }
  if (-age > toleranceSeconds) {
    return { ok: false, reason: `the timestamp is ${-age} s in the future, more than the ${toleranceSeconds} s allowed` };
  }
  if (!input.signature) return { ok: false, reason: `the ${WEBHOOK_SIGNATURE_HEADER} header is missing` };

  const offered = input.signature
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${SCHEME}=`))
    .map((part) => part.slice(SCHEME.length + 1))
    .filter((hex) => HEX_SIGNATURE.test(hex))
    .map((hex) => Buffer.from(hex, "hex"));
  if (offered.length === 0) return { ok: false, reason: `the ${WEBHOOK_SIGNATURE_HEADER} header holds no ${SCHEME}= signature` };

  // Every pair is compared, with no early exit, so the time taken tells nothing about which matched.
  let matched = false;
  for (const secret of secrets) {
    const expected = Buffer.from(hmacHex(secret, timestampText, body), "hex");
    for (const candidate of offered) {
      if (timingSafeEqual(expected, candidate)) matched = true;
    }
  }
  return matched ? { ok: true } : { ok: false, reason: "no signature matches the body and timestamp" };
}

/** A new webhook secret: `whsec_` and 32 random bytes in base64url (43 characters). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}
