/**
 * The one reader of credentials in request headers (issue 22): the API's `Authorization: Bearer`,
 * and the forms OTLP exporters are configured with. An `Authorization` value is
 * `scheme credentials` (RFC 9110 section 11.6.2); the scheme is case-insensitive (section 11.1), so `bearer`,
 * `Bearer` and `BEARER` are one scheme. Everything that looks at a key (the key check, the
 * rate limiter's memory of recently accepted keys) goes through here, so no two places disagree
 * about which key a request carries.
 */

/** An `Authorization` value split into its scheme (lower-cased) and its credentials; null when it has no credentials. */
export function parseAuthorization(value: string | null): { scheme: string; credentials: string } | null {
  const match = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)[ \t]+(\S+)\s*$/.exec(value ?? "");
  return match ? { scheme: match[1].toLowerCase(), credentials: match[2] } : null;
}

/** The key of `Authorization: Bearer <key>` (any case of the scheme); null for any other value. */
export function bearerKey(authorization: string | null): string | null {
  const parsed = parseAuthorization(authorization);
  return parsed?.scheme === "bearer" ? parsed.credentials : null;
}

/** What an OTLP exporter sent as its key, for the contract's forms (docs/contract/otlp.md#authentication). */
export type ExporterKey =
  /** A key: from Bearer, from `x-api-key`, or the password of HTTP Basic. */
  | { key: string }
  /** An Authorization header that carries no key in a form we read (another scheme, Basic without a password). */
  | { unreadable: string }
  /** No credentials at all. */
  | null;

/**
 * The exporter's key: `Authorization: Bearer <key>`, `Authorization: Basic base64(user:key)` (any
 * user name), else `x-api-key: <key>`. An Authorization header wins over x-api-key, as it always has.
 */
export function exporterKey(headers: { get(name: string): string | null }): ExporterKey {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const parsed = parseAuthorization(authorization);
    if (parsed?.scheme === "bearer") return { key: parsed.credentials };
    if (parsed?.scheme === "basic" && /^[A-Za-z0-9+/]+=*$/.test(parsed.credentials)) {
      const userPassword = Buffer.from(parsed.credentials, "base64").toString("utf8");
      const colon = userPassword.indexOf(":");
      const key = colon < 0 ? "" : userPassword.slice(colon + 1).trim();
      if (key && !/\s/.test(key)) return { key };
    }
    return { unreadable: authorization };
  }
  const apiKey = headers.get("x-api-key")?.trim();
  return apiKey ? { key: apiKey } : null;
}
