import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { verifyWebhook, webhookHeaders } from "@/lib/alerts/webhook-signature";
import { RESPONSE_EXCERPT_BYTES, postWebhook, type WebhookPost } from "./post-webhook";

/** What the receiver saw of each request. */
interface Seen {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A body whose 2,048-byte cut falls inside a two-byte character: "a" and then "é" (2 bytes) many times. */
const HUGE = `a${"é".repeat(500_000)}`;

/**
 * A real receiver on 127.0.0.1, one behaviour per path. It records each request once its body has
 * arrived (or, for /reset and /hang, as soon as the headers have).
 */
function receiver(seen: Seen[]): Server {
  return createServer((req, res) => {
    res.on("error", () => {}); // a client that stops reading (the excerpt's cap) is not the receiver's failure
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      switch (req.url) {
        case "/ok":
          res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8" }).end("thanks ✓");
          return;
        case "/fail":
          res.writeHead(500, { "Content-Type": "application/json" }).end('{"error":"database down"}');
          return;
        case "/hang":
          return; // never answers
        case "/reset":
          req.socket.destroy();
          return;
        case "/cut":
          // The headers and part of the body, then the connection dies.
          res.writeHead(200, { "Content-Length": "1000" });
          res.write("partial", () => req.socket.destroy());
          return;
        case "/redirect":
          res.writeHead(302, { Location: "http://elsewhere.example/hook" }).end("moved");
          return;
        case "/huge":
          res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8" }).end(HUGE);
          return;
        default:
          res.writeHead(404).end();
      }
    });
  });
}

const seen: Seen[] = [];
const server = receiver(seen);
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
});

const BODY = JSON.stringify({ alert: "run.failed", run: "r1", note: "café" });
const SECRET = "whsec_test";

/** A post to the receiver's `path`, private targets allowed (the receiver is on loopback). */
function post(path: string, overrides: Partial<WebhookPost> = {}): ReturnType<typeof postWebhook> {
  return postWebhook({
    url: `http://127.0.0.1:${port}${path}`,
    body: BODY,
    headers: webhookHeaders(SECRET, "dlv_1", BODY, new Date()),
    timeoutMs: 5000,
    allowPrivate: true,
    ...overrides,
  });
}

describe("postWebhook against a real receiver", () => {
  it("sends the exact body and signed headers, and reads a 2xx answer", async () => {
    const now = new Date();
    const headers = webhookHeaders(SECRET, "dlv_42", BODY, now);
    const answer = await post("/ok", { headers });

    expect(answer).toEqual({ ok: true, status: 200, error: null, durationMs: expect.any(Number), responseExcerpt: "thanks ✓" });
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/ok");
    expect(request.body).toBe(BODY);
    expect(request.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": "Cuescope-Webhook/1",
      "content-length": String(Buffer.byteLength(BODY)),
      "x-cuescope-delivery": "dlv_42",
      "x-cuescope-timestamp": headers["X-Cuescope-Timestamp"],
      "x-cuescope-signature": headers["X-Cuescope-Signature"],
    });
    // The receiver's own check passes on what arrived.
    const verdict = verifyWebhook({
      secret: SECRET,
      body: request.body,
      timestamp: request.headers["x-cuescope-timestamp"] as string,
      signature: request.headers["x-cuescope-signature"] as string,
      now,
    });
    expect(verdict).toEqual({ ok: true });
  });

  it("a 500 is a failed answer with its status and body", async () => {
    expect(await post("/fail")).toEqual({
      ok: false,
      status: 500,
      error: "the receiver answered 500 Internal Server Error",
      durationMs: expect.any(Number),
      responseExcerpt: '{"error":"database down"}',
    });
  });

  it("gives up when no answer comes within the timeout", async () => {
    const answer = await post("/hang", { timeoutMs: 300 });
    expect(answer).toMatchObject({ ok: false, status: null, error: "no answer within 300 ms", responseExcerpt: null });
    expect(answer.durationMs).toBeGreaterThanOrEqual(290);
    expect(answer.durationMs).toBeLessThan(3000);
    expect(seen).toHaveLength(1); // it did arrive; the receiver just never answered
  });

  it("a reset connection is a failed answer", async () => {
    expect(await post("/reset")).toMatchObject({
      ok: false,
      status: null,
      error: "the connection was reset (ECONNRESET)",
      responseExcerpt: null,
    });
  });

  it("a body cut off after the headers keeps the status but fails", async () => {
    expect(await post("/cut")).toMatchObject({
      ok: false,
      status: 200,
      error: "the answer was cut off: the connection was reset (ECONNRESET)",
      responseExcerpt: "partial",
    });
  });

  it("does not follow a redirect", async () => {
    const answer = await post("/redirect");
    expect(answer).toMatchObject({ ok: false, status: 302, responseExcerpt: "moved" });
    expect(answer.error).toBe(
      "the receiver answered 302 Found, a redirect to http://elsewhere.example/hook; redirects are not followed, so edit the webhook's URL",
    );
    expect(seen.map((request) => request.url)).toEqual(["/redirect"]);
  });

  it("keeps at most 2,048 bytes of a huge answer, never half a character", async () => {
    const answer = await post("/huge");
    expect(answer).toMatchObject({ ok: true, status: 200, error: null });
    // "a" and 1,023 "é" are 2,047 bytes; the 2,048th byte is half an "é" and is dropped.
    expect(answer.responseExcerpt).toBe(`a${"é".repeat(1023)}`);
    expect(Buffer.byteLength(answer.responseExcerpt!)).toBeLessThanOrEqual(RESPONSE_EXCERPT_BYTES);
  });

  it("refuses a host name that resolves to loopback unless private targets are allowed", async () => {
    const refused = await post("/ok", { url: `http://localhost:${port}/ok`, allowPrivate: false });
    expect(refused).toMatchObject({ ok: false, status: null, responseExcerpt: null });
    expect(refused.error).toMatch(
      /^localhost resolves to (127\.0\.0\.1|::1), a private, loopback or link-local address; set CUESCOPE_WEBHOOK_ALLOW_PRIVATE=true/,
    );
    expect(seen).toHaveLength(0);

    expect(await post("/ok", { url: `http://localhost:${port}/ok`, allowPrivate: true })).toMatchObject({ ok: true, status: 200 });
    expect(seen).toHaveLength(1);
  });

  it("refuses a literal loopback address unless private targets are allowed", async () => {
    const refused = await post("/ok", { allowPrivate: false });
    expect(refused.error).toBe(
      "127.0.0.1 is a private, loopback or link-local address; set CUESCOPE_WEBHOOK_ALLOW_PRIVATE=true to allow such targets",
    );
    expect(seen).toHaveLength(0);
  });
});

describe("postWebhook's other failures", () => {
  it.each([
    ["not a url", "the webhook URL is not a valid URL"],
    ["ftp://127.0.0.1/x", "the webhook URL must be http or https, not ftp:"],
  ])("%s → %s", async (url, error) => {
    expect(await postWebhook({ url, body: BODY, headers: {}, timeoutMs: 1000, allowPrivate: true })).toMatchObject({
      ok: false,
      status: null,
      error,
    });
  });

  it("a header it cannot send is an answer, not a throw", async () => {
    const answer = await post("/ok", { headers: { "X-Bad": "line\nbreak" } });
    expect(answer).toMatchObject({ ok: false, status: null, error: expect.stringContaining("the request could not be made") });
    expect(seen).toHaveLength(0);
  });

  it("a closed port is a refused connection", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await post("/ok", { url: `http://127.0.0.1:${closedPort}/` })).toMatchObject({
      ok: false,
      status: null,
      error: "the connection was refused (ECONNREFUSED)",
    });
  });
});
