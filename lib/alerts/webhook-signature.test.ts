import { describe, expect, it } from "vitest";
import {
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  newWebhookSecret,
  signWebhook,
  verifyWebhook,
  webhookHeaders,
} from "./webhook-signature";

const SECRET = "whsec_test_secret";
const BODY = '{"alert":"run.failed","id":"evt_1"}';
const T = 1700000000;
const AT_T = new Date(T * 1000);

// Expected HMACs computed outside this code, with OpenSSL in a shell, e.g.:
//   printf '%s' '1700000000.{"alert":"run.failed","id":"evt_1"}' | openssl dgst -sha256 -hmac 'whsec_test_secret'
// (printf '%s' sends the text as UTF-8 with no trailing newline).
const KNOWN = [
  // secret, timestamp, body, hex
  [SECRET, T, BODY, "37d867cff5a64983e08b6787dab89213edc69ad0f7dfc0cd45839c0241201863"],
  [SECRET, T, "", "316b9ab98c15bfa039d243f3196acee619cf29749a91a634e6a8154e2f7b6727"],
  [SECRET, T, '{"note":"café ☕"}', "aa2809d3860b188ffb7a8c0c82709a4eed56e97fba863bc1948a2c51288ad82b"],
  ["another-secret", T + 300, BODY, "e037014a9414db421f911fb7f36433f953bbc977f6631180df6bdd31354ff594"],
] as const;

describe("signWebhook", () => {
  it.each(KNOWN)("HMAC-SHA256(%j, %i.<body %j>)", (secret, timestamp, body, hex) => {
    expect(signWebhook(secret, timestamp, body)).toBe(`v1=${hex}`);
  });
});

describe("webhookHeaders", () => {
  it("sends JSON, the user agent, the seconds, the signature and the delivery id", () => {
    // 999 ms past the second: the timestamp is the whole second, not rounded up.
    expect(webhookHeaders(SECRET, "dlv_1", BODY, new Date(T * 1000 + 999))).toEqual({
      "Content-Type": "application/json",
      "User-Agent": "Cuescope-Webhook/1",
      [WEBHOOK_TIMESTAMP_HEADER]: "1700000000",
      [WEBHOOK_SIGNATURE_HEADER]: `v1=${KNOWN[0][3]}`,
      [WEBHOOK_DELIVERY_HEADER]: "dlv_1",
    });
  });

  it("signs with every secret while one is rotated", () => {
    const headers = webhookHeaders([SECRET, "another-secret"], "dlv_1", BODY, AT_T);
    expect(headers[WEBHOOK_SIGNATURE_HEADER]).toBe(`${signWebhook(SECRET, T, BODY)},${signWebhook("another-secret", T, BODY)}`);
  });

  it("keeps the delivery id across retries while the timestamp and signature change", () => {
    const first = webhookHeaders(SECRET, "dlv_7", BODY, AT_T);
    const retry = webhookHeaders(SECRET, "dlv_7", BODY, new Date((T + 60) * 1000));
    expect(retry[WEBHOOK_DELIVERY_HEADER]).toBe(first[WEBHOOK_DELIVERY_HEADER]);
    expect(retry[WEBHOOK_SIGNATURE_HEADER]).not.toBe(first[WEBHOOK_SIGNATURE_HEADER]);
  });
});

describe("verifyWebhook", () => {
  const good = `v1=${KNOWN[0][3]}`;
  const otherSecret = signWebhook("old-secret", T, BODY);

  it.each([
    // what, input overrides, expected reason (null: accepted)
    ["the known vector", {}, null],
    ["a numeric timestamp", { timestamp: T }, null],
    ["upper-case hex", { signature: good.toUpperCase().replace("V1=", "v1=") }, null],
    ["rotation: the new value second", { signature: `${otherSecret},${good}` }, null],
    ["rotation: spaces after commas", { signature: `${otherSecret}, ${good}` }, null],
    ["an unknown scheme beside v1", { signature: `v0=abc,${good}` }, null],
    ["rotation: the receiver knows two secrets", { secret: ["old-secret", SECRET] }, null],
    ["exactly the tolerance old", { now: new Date((T + 300) * 1000) }, null],
    ["exactly the tolerance ahead", { now: new Date((T - 300) * 1000) }, null],
    ["a smaller tolerance, still inside", { now: new Date((T + 10) * 1000), toleranceSeconds: 10 }, null],
    ["a tampered body", { body: BODY.replace("evt_1", "evt_2") }, "no signature matches"],
    ["a body with a trailing newline", { body: `${BODY}\n` }, "no signature matches"],
    ["a changed timestamp", { timestamp: String(T + 1), now: AT_T }, "no signature matches"],
    ["the wrong secret", { secret: "whsec_other" }, "no signature matches"],
    ["one hex digit changed", { signature: good.slice(0, -1) + "4" }, "no signature matches"],
    ["only other secrets' values", { signature: otherSecret }, "no signature matches"],
    ["a truncated signature", { signature: good.slice(0, 40) }, "holds no v1= signature"],
    ["another scheme only", { signature: `v0=${KNOWN[0][3]}` }, "holds no v1= signature"],
    ["a bare hex signature", { signature: KNOWN[0][3] }, "holds no v1= signature"],
    ["no signature", { signature: null }, "X-Cuescope-Signature header is missing"],
    ["no timestamp", { timestamp: undefined }, "X-Cuescope-Timestamp header is missing"],
    ["a timestamp that is not seconds", { timestamp: "1700000000.5" }, "is not unix seconds"],
    ["a negative timestamp", { timestamp: "-1" }, "is not unix seconds"],
    ["a stale timestamp", { now: new Date((T + 301) * 1000) }, "301 s old, more than the 300 s allowed"],
    ["a future timestamp", { now: new Date((T - 301) * 1000) }, "301 s in the future, more than the 300 s allowed"],
    ["a smaller tolerance", { now: new Date((T + 11) * 1000), toleranceSeconds: 10 }, "11 s old, more than the 10 s allowed"],
  ] as const)("%s", (_what, overrides, reason) => {
    const verdict = verifyWebhook({ secret: SECRET, body: BODY, timestamp: String(T), signature: good, now: AT_T, ...overrides });
    if (reason === null) expect(verdict).toEqual({ ok: true });
    else expect(verdict).toEqual({ ok: false, reason: expect.stringContaining(reason) });
  });

  it("accepts what webhookHeaders sends", () => {
    const now = new Date();
    const headers = webhookHeaders(SECRET, "dlv_1", BODY, now);
    expect(
      verifyWebhook({
        secret: SECRET,
        body: BODY,
        timestamp: headers[WEBHOOK_TIMESTAMP_HEADER],
        signature: headers[WEBHOOK_SIGNATURE_HEADER],
        now,
      }),
    ).toEqual({ ok: true });
  });
});

describe("newWebhookSecret", () => {
  it("is whsec_ and 32 random bytes in base64url", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice("whsec_".length), "base64url")).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });
});
