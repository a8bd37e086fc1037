import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import Negotiator from "negotiator";
import { directDocumentOf, documentTrailer, type DirectDocument } from "@/lib/server/export/streamed-download";
import { matchEndpoint, routeOf } from "./api";
import { markDirect } from "./endpoint-route";

/**
 * The answers scripts/server.mjs writes to the socket itself, past Next.js: a route marked `direct`
 * (endpointRoute's option; today the decisions download) is served here exactly as
 * app/api/[...path]/route.ts would serve it — the same route, given a Request made of the same
 * method, URL and headers, so the same caller checks, parsing and errors — and when its answer is a
 * streamed document (streamedDocument) its pieces go to the socket as they are, with backpressure,
 * instead of through a web stream that Next pipes into the socket. Measured (README "Scale"): a
 * 64 MB download through Next's pipe costs the server 4–5× reading its bytes from the database, most
 * of it garbage collection of the copies on the way; written here, each piece is the database read's
 * own bytes, handed to the socket once.
 *
 * gzip, when the client asks for it (as Next's compression would), runs on libuv's thread pool
 * (node:zlib), not on the event loop. Every other request, and every answer that is not a streamed
 * document (an error, a HEAD), is answered here only when its route is direct: the rest go to Next.
 */
export async function serveDirect(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const url = req.url ?? "/";
  if (!url.startsWith("/api/")) return false;
  const pathname = url.split("?", 1)[0];
  const match = matchEndpoint(req.method, pathname);
  if (!match || !("endpoint" in match)) return false;
  const route = routeOf(match.endpoint);
  if (!route.direct) return false;

  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  let address: URL;
  try {
    address = new URL(url, `http://${req.headers.host ?? "localhost"}`);
  } catch {
    return false; // a Host that is no host: Next answers it as it answers any other
  }
  const request = markDirect(new Request(address, { method: req.method, headers }));
  const response = await route(request, { params: Promise.resolve(match.params) });
  const direct = directDocumentOf(response);
  if (req.method === "HEAD") direct?.document.close();
  if (!direct || req.method === "HEAD") {
    await writeResponse(res, response, req.method === "HEAD");
    return true;
  }
  // From here the document is this function's: closed whatever happens.
  try {
    const gzip = new Negotiator(req).encodings(["gzip", "identity"])[0] === "gzip";
    res.statusCode = response.status;
    copyHeaders(response, res);
    if (gzip) {
      res.setHeader("content-encoding", "gzip");
      res.setHeader("vary", "accept-encoding");
    }
    await writeDocument(res, direct, gzip);
  } catch (error) {
    direct.document.close();
    throw error;
  }
  return true;
}

/** A small answer (an error, a HEAD's headers) as it is. */
async function writeResponse(res: ServerResponse, response: Response, head: boolean): Promise<void> {
  res.statusCode = response.status;
  copyHeaders(response, res);
  if (head || response.body === null) {
    await response.body?.cancel();
    res.end();
    return;
  }
  res.end(Buffer.from(await response.arrayBuffer()));
}

function copyHeaders(response: Response, res: ServerResponse): void {
  for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
}

/**
 * The document's pieces, one at a time, each written when the socket took the previous ones (a
 * client that reads nothing for `idleMs` is disconnected). A failure after the first bytes ends the
 * body with documentTrailer's mark, as the web stream does. The document is closed (what it holds
 * let go) after its last piece, on a failure, or as soon as the client goes away.
 */
export async function writeDocument(res: ServerResponse, { document, label, idleMs }: DirectDocument, gzip: boolean): Promise<void> {
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    document.close();
  };
  // The client may have gone while the route read the first page (its "close" came and went).
  if (res.destroyed || res.writableEnded) return close();
  let gone = false;
  const onGone = () => {
    gone = true;
    close();
  };
  res.once("close", onGone);
  let out: Writable = res;
  if (gzip) {
    const zip = createGzip();
    pipeline(zip, res).catch(() => {}); // a client gone mid-way: both are destroyed (onGone closes the document)
    out = zip;
  }
  try {
    for (;;) {
      let piece: Uint8Array | null;
      try {
        piece = await document.next();
      } catch (error) {
        if (!gone) out.end(documentTrailer(error, label));
        return;
      }
      if (gone) return;
      if (piece === null) {
        out.end();
        return;
      }
      await written(out, piece, res, idleMs, label);
      if (gone || res.destroyed) return;
    }
  } finally {
    res.off("close", onGone);
    close();
  }
}

/**
 * Writes a piece and waits until `out` took it (the socket, or gzip, has read its bytes: the memory
 * may be used again, HandlerContext.direct), or the connection closed; one that takes nothing for
 * `idleMs` is closed.
 */
function written(out: Writable, piece: Uint8Array, res: ServerResponse, idleMs: number, label: string): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      res.off("close", done);
      resolve();
    };
    const timer = setTimeout(() => {
      console.error(`[cuescope] the ${label} was not read for ${idleMs} ms; closing the connection`);
      res.destroy();
      done();
    }, idleMs);
    res.once("close", done);
    out.write(piece, () => done());
  });
}
