import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { StringDecoder } from "node:string_decoder";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";

/**
 * One HTTP POST of an alert webhook, and what came of it. The URL was checked when it was saved
 * (checkWebhookTarget); what it cannot check is where a host NAME points now, so the connection
 * goes through request-filtering-agent, which refuses a private, loopback or link-local address
 * after its own DNS lookup (a name rebound to 127.0.0.1 or the metadata address is caught here)
 * unless the operator allows private targets. Redirects are not followed: a 3xx could lead anywhere,
 * and a receiver that moved should have its URL edited.
 */

/** What a delivery attempt gives; stored with the delivery and shown to the alert's owner. */
export interface WebhookAnswer {
  /** The receiver answered 2xx (and its answer was read in time). */
  ok: boolean;
  /** The HTTP status, or null when no answer came (refused, reset, timed out…). */
  status: number | null;
  /** Why it failed, in words for the alert's owner; null when ok. */
  error: string | null;
  /** From the start of the request to the answer (or the failure), in whole milliseconds. */
  durationMs: number;
  /** The start of the answer's body (at most RESPONSE_EXCERPT_BYTES, UTF-8); null when no answer came. */
  responseExcerpt: string | null;
}

export interface WebhookPost {
  url: string;
  /** The JSON text sent, exactly as signed. */
  body: string;
  /** webhookHeaders' headers (Content-Length is added here). */
  headers: Record<string, string>;
  /** The whole exchange (connect, send, answer, excerpt) must end within this, or it is abandoned. */
  timeoutMs: number;
  /** CUESCOPE_WEBHOOK_ALLOW_PRIVATE: private and loopback addresses may be connected to. */
  allowPrivate: boolean;
}

/** The most of an answer's body kept: enough to show a receiver's error message, never a flood. */
export const RESPONSE_EXCERPT_BYTES = 2048;

const ALLOW_PRIVATE_SETTING = "CUESCOPE_WEBHOOK_ALLOW_PRIVATE";

/**
 * One agent pair per setting, made once: the agents hold the address filter. No keep-alive, so an
 * idle socket never outlives its delivery (and a later delivery always connects, and is checked, again).
 */
const AGENTS = {
  filtered: agentPair(false),
  open: agentPair(true),
};

function agentPair(allowPrivate: boolean) {
  // "Meta" addresses are 0.0.0.0 and ::, which reach this host: allowed exactly when private ones are.
  const options = { keepAlive: false, allowPrivateIPAddress: allowPrivate, allowMetaIPAddress: allowPrivate };
  return { http: new RequestFilteringHttpAgent(options), https: new RequestFilteringHttpsAgent(options) };
}

/** POSTs the webhook and says what came of it. Never throws: every failure is an answer with `ok: false`. */
export function postWebhook(input: WebhookPost): Promise<WebhookAnswer> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string, status: number | null = null, responseExcerpt: string | null = null): WebhookAnswer => ({
    ok: false,
    status,
    error,
    durationMs: elapsed(),
    responseExcerpt,
  });

  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return Promise.resolve(failed("the webhook URL is not a valid URL"));
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return Promise.resolve(failed(`the webhook URL must be http or https, not ${url.protocol}`));
  }

  return new Promise<WebhookAnswer>((resolve) => {
    let req: ReturnType<typeof httpRequest> | undefined;
    /** The answer's status and excerpt so far: a timeout or a cut-off body after the headers keeps them. */
    let status: number | null = null;
    let excerpt = (): string | null => null;
    let settled = false;
    const settle = (answer: WebhookAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
      // Whatever is still open (a body not read to its end, a connection in progress) is dropped.
      req?.destroy();
    };
    const timer = setTimeout(() => settle(failed(`no answer within ${duration(input.timeoutMs)}`, status, excerpt())), input.timeoutMs);

    try {
      const agents = input.allowPrivate ? AGENTS.open : AGENTS.filtered;
      const send = url.protocol === "https:" ? httpsRequest : httpRequest;
      req = send(url, {
        method: "POST",
        agent: url.protocol === "https:" ? agents.https : agents.http,
        headers: { ...input.headers, "Content-Length": String(Buffer.byteLength(input.body, "utf8")) },
      });
    } catch (error) {
      // request() throws at once for what it cannot send (a header value with a line break…).
      settle(failed(`the request could not be made: ${errorInWords(error, url)}`));
      return;
    }
    req.on("error", (error) => settle(failed(errorInWords(error, url), status, excerpt())));
    req.on("response", (res: IncomingMessage) => {
      status = res.statusCode ?? null;
      const read = readExcerpt(res);
      excerpt = read.text;
      read.done.then(
        () => settle(judge(res, read.text(), elapsed())),
        (error: unknown) => settle(failed(`the answer was cut off: ${errorInWords(error, url)}`, status, read.text())),
      );
    });
    req.end(input.body);
  });
}

/** The answer once its excerpt is read: ok for 2xx; a 3xx says it was not followed. */
function judge(res: IncomingMessage, responseExcerpt: string, durationMs: number): WebhookAnswer {
  const status = res.statusCode ?? 0;
  const answered = `the receiver answered ${status}${res.statusMessage ? ` ${res.statusMessage}` : ""}`;
  let error: string | null = null;
  if (status >= 300 && status < 400) {
    const location = res.headers.location;
    error = `${answered}, a redirect${location ? ` to ${location}` : ""}; redirects are not followed, so edit the webhook's URL`;
  } else if (status < 200 || status >= 300) {
    error = answered;
  }
  return { ok: error === null, status, error, durationMs, responseExcerpt };
}

/**
 * Reads at most RESPONSE_EXCERPT_BYTES of the body, then stops (the caller destroys the request).
 * `text()` is what was read so far, decoded as UTF-8 without a character cut in half at the end.
 */
function readExcerpt(res: IncomingMessage): { text: () => string; done: Promise<void> } {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const text = () => new StringDecoder("utf8").write(Buffer.concat(chunks, Math.min(bytes, RESPONSE_EXCERPT_BYTES)));
  const done = new Promise<void>((resolve, reject) => {
    res.on("data", (chunk: Buffer) => {
      if (bytes >= RESPONSE_EXCERPT_BYTES) return;
      chunks.push(chunk);
      bytes += chunk.length;
      if (bytes >= RESPONSE_EXCERPT_BYTES) resolve();
    });
    res.on("end", () => resolve());
    res.on("error", reject);
    // A connection closed before the body's end gives "aborted" (and on newer Node an error too).
    res.on("aborted", () => reject(Object.assign(new Error("aborted"), { code: "ECONNRESET" })));
  });
  return { text, done };
}

/** A timeout in words: whole seconds as "10 s", anything else in ms. */
function duration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** A network error in words for the alert's owner, its code in parentheses. */
function errorInWords(error: unknown, url: URL): string {
  const err = error instanceof Error ? (error as NodeJS.ErrnoException) : new Error(String(error));
  const code = "code" in err && typeof err.code === "string" ? err.code : undefined;
  // request-filtering-agent's refusal: "DNS lookup 127.0.0.1(family:4, host:localhost) is not allowed. Because, …".
  const refused = /^DNS lookup (\S+?)\(.*is not allowed/.exec(err.message);
  if (refused) {
    const address = refused[1];
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    const what = host === address ? `${address} is` : `${url.hostname} resolves to ${address},`;
    return `${what} a private, loopback or link-local address; set ${ALLOW_PRIVATE_SETTING}=true to allow such targets`;
  }
  switch (code) {
    case "ECONNRESET":
      return "the connection was reset (ECONNRESET)";
    case "ECONNREFUSED":
      return `the connection was refused (ECONNREFUSED)`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `the host name ${url.hostname} was not found (${code})`;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `${url.hostname} cannot be reached (${code})`;
    case "EPIPE":
      return "the connection was closed while sending (EPIPE)";
  }
  if (code?.startsWith("ERR_TLS") || code?.includes("CERT") || code?.startsWith("UNABLE_TO")) {
    return `the receiver's TLS certificate was refused: ${err.message} (${code})`;
  }
  return code ? `${err.message} (${code})` : err.message;
}
