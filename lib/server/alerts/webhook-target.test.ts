import { describe, expect, it } from "vitest";
import { checkWebhookTarget } from "./webhook-target";

/** The server as the tests see it: its public URL, the request's origin, and the port it listens on. */
const SELF = { selfOrigins: ["https://cuescope.example.com", "http://127.0.0.1:3000", "not a url"], selfPort: 3000 };
const PRIVATE = "unless the operator sets CUESCOPE_WEBHOOK_ALLOW_PRIVATE=true";
const ITSELF = "points at this Cuescope server itself";

/** What a check gives: "ok", or its error. */
function outcome(raw: string, allowPrivate: boolean): string {
  const check = checkWebhookTarget(raw, { ...SELF, allowPrivate });
  return check.ok ? "ok" : check.error;
}

describe("checkWebhookTarget", () => {
  it.each([
    // url, expected without private targets, expected with them ("ok" or part of the error)
    ["https://hooks.example.com/cuescope?token=abc", "ok", "ok"],
    ["http://hooks.example.com:8080/x", "ok", "ok"],
    ["  https://hooks.example.com/padded  ", "ok", "ok"],
    ["https://93.184.216.34/hook", "ok", "ok"],
    ["https://[2606:4700::1111]/hook", "ok", "ok"],
    // Names are resolved at connect time (postWebhook), not here, even names that look internal.
    ["http://intranet.corp/hook", "ok", "ok"],
    ["http://metadata.google.internal/", "ok", "ok"],

    // Not a URL we call, whatever the setting.
    ["", "the webhook URL is empty", "the webhook URL is empty"],
    ["hooks.example.com/x", "not a valid absolute URL", "not a valid absolute URL"],
    ["http://", "not a valid absolute URL", "not a valid absolute URL"],
    ["ftp://files.example.com/x", "must be http or https, not ftp:", "must be http or https, not ftp:"],
    ["file:///etc/passwd", "must be http or https, not file:", "must be http or https, not file:"],
    ["javascript:alert(1)", "must be http or https, not javascript:", "must be http or https, not javascript:"],
    ["gopher://127.0.0.1:6379/_x", "not gopher:", "not gopher:"],
    ["https://user:pw@hooks.example.com/", "must not contain a user name or password", "must not contain a user name or password"],
    ["https://user@hooks.example.com/", "must not contain a user name or password", "must not contain a user name or password"],
    [`https://hooks.example.com/${"a".repeat(1980)}`, "2,006 characters long; at most 2,000", "2,006 characters long; at most 2,000"],

    // The server itself: refused even when private targets are allowed.
    ["https://cuescope.example.com/api/v1/runs", ITSELF, ITSELF],
    ["HTTPS://CUESCOPE.example.com:443/x", ITSELF, ITSELF],
    ["http://127.0.0.1:3000/", ITSELF, ITSELF],
    ["http://localhost:3000/api", ITSELF, ITSELF],
    ["http://app.localhost:3000/", ITSELF, ITSELF],
    ["http://127.0.0.2:3000/", ITSELF, ITSELF],
    ["http://[::1]:3000/", ITSELF, ITSELF],
    ["http://0.0.0.0:3000/", ITSELF, ITSELF],
    ["http://[::]:3000/", ITSELF, ITSELF],
    ["http://[::ffff:127.0.0.1]:3000/", ITSELF, ITSELF],
    ["http://2130706433:3000/", ITSELF, ITSELF], // 127.0.0.1 as one number
    ["http://0x7f.1:3000/", ITSELF, ITSELF], // 127.0.0.1 in hex, shortened
    // Other ports and schemes of loopback are another service: private, not the server.
    ["http://127.0.0.1:8080/", "127.0.0.1 is a loopback address", "ok"],
    ["http://localhost/", "localhost is a loopback name", "ok"],
    ["http://localhost.:9000/", "localhost. is a loopback name", "ok"],
    ["https://cuescope.example.com:8443/", "ok", "ok"],
    ["http://cuescope.example.com/", "ok", "ok"],

    // Literal private and special addresses.
    ["http://10.1.2.3/", "10.1.2.3 is a private address", "ok"],
    ["http://172.16.0.1/", "is a private address", "ok"],
    ["http://192.168.1.10:8123/hook", "192.168.1.10 is a private address", "ok"],
    ["http://169.254.169.254/latest/meta-data/", "169.254.169.254 is the cloud metadata address", "ok"],
    ["http://[fd00:ec2::254]/", "the cloud metadata address", "ok"],
    ["http://169.254.1.1/", "is a link-local address", "ok"],
    ["http://100.64.0.1/", "is a carrier-grade NAT address", "ok"],
    ["http://0.0.0.0/", "0.0.0.0 is the unspecified address", "ok"],
    ["http://[::]/", "[::] is the unspecified address", "ok"],
    ["http://224.0.0.251/", "is a multicast address", "ok"],
    ["http://255.255.255.255/", "is the broadcast address", "ok"],
    ["http://240.0.0.1/", "is a reserved address", "ok"],
    ["http://192.0.2.1/", "is a reserved address", "ok"],
    ["http://[::1]/", "[::1] is a loopback address", "ok"],
    ["http://[fe80::1]/", "is a link-local address", "ok"],
    ["http://[fd12:3456::1]/", "is a unique-local address", "ok"],
    ["http://[ff02::1]/", "is a multicast address", "ok"],
    ["http://[::ffff:10.0.0.1]/", "is a private address (IPv4-mapped 10.0.0.1)", "ok"],
    ["http://[::ffff:169.254.169.254]/", "the cloud metadata address (IPv4-mapped 169.254.169.254)", "ok"],
    ["http://[::ffff:93.184.216.34]/", "an IPv4-mapped IPv6 address; write 93.184.216.34 itself", "ok"],
    ["http://[64:ff9b::a00:1]/", "a special-purpose address (rfc6052)", "ok"],
    ["http://0177.0.0.1/", "127.0.0.1 is a loopback address", "ok"], // octal, normalised by URL
  ] as const)("%s", (raw, strict, allowed) => {
    for (const [allowPrivate, expected] of [
      [false, strict],
      [true, allowed],
    ] as const) {
      if (expected === "ok") expect(outcome(raw, allowPrivate)).toBe("ok");
      else expect(outcome(raw, allowPrivate)).toContain(expected);
    }
  });

  it("names the setting in every refusal of a private target", () => {
    expect(outcome("http://10.0.0.1/", false)).toBe(
      `the webhook URL's host 10.0.0.1 is a private address; such targets are refused ${PRIVATE}`,
    );
  });

  it("gives the URL it parsed", () => {
    const check = checkWebhookTarget(" https://Hooks.Example.com/a?b=1 ", { allowPrivate: false, selfOrigins: [] });
    expect(check.ok && check.url.href).toBe("https://hooks.example.com/a?b=1");
  });

  it("without selfPort, a loopback port is only private", () => {
    expect(checkWebhookTarget("http://127.0.0.1:3000/", { allowPrivate: true, selfOrigins: [] }).ok).toBe(true);
  });

  it("accepts exactly 2,000 characters", () => {
    const raw = `https://hooks.example.com/${"a".repeat(2000 - "https://hooks.example.com/".length)}`;
    expect(raw).toHaveLength(2000);
    expect(outcome(raw, false)).toBe("ok");
  });
});
