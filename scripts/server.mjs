/**
 * Cuescope's production server (run by scripts/start.sh): Next.js through its programmatic API,
 * behind a plain node:http server that does one thing more than `next start` — it tells the app
 * who is on the other end of the TCP connection, in a way no client can forge:
 *
 * - it picks a private header name at random (`x-cuescope-peer-<hex>`), records it in this
 *   process's own environment (CUESCOPE_PEER_HEADER, read by lib/server/auth/client-address.ts),
 *   deletes any client-sent `x-cuescope-peer*` header and sets the private one to
 *   `req.socket.remoteAddress`;
 * - it listens on HOST, 127.0.0.1 unless told otherwise (HOST=0.0.0.0 to serve the network; see
 *   README "Security").
 *
 * Next's own `x-forwarded-for` (which keeps a client-sent value) is never trusted for this; a
 * reverse proxy's forwarded headers are trusted only with CUESCOPE_TRUST_PROXY=<hops>.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// `--dev` (npm run dev): the development server (Turbopack, hot reload) behind the same peer header.
const dev = process.argv.includes("--dev");
process.env.NODE_ENV = dev ? "development" : "production";
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
const dir = join(dirname(fileURLToPath(import.meta.url)), "..");
const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOST || "127.0.0.1";
const PEER_PREFIX = "x-cuescope-peer";
const peerHeader = `${PEER_PREFIX}-${randomBytes(12).toString("hex")}`;
process.env.CUESCOPE_PEER_HEADER = peerHeader;

const { default: next } = await import("next");
const app = next({ dev, dir, hostname, port });
await app.prepare();
const handle = app.getRequestHandler();

/** Replaces any client-sent copy of the private headers with what the socket says. */
function markPeer(req) {
  for (const name of Object.keys(req.headers)) if (name.startsWith(PEER_PREFIX)) delete req.headers[name];
  req.headers[peerHeader] = req.socket.remoteAddress ?? "";
  // Whether the request arrived with forwarding headers (before Next adds its own x-forwarded-*):
  // a proxy on this machine must not make remote visitors look local.
  if (req.headers["x-forwarded-for"] !== undefined || req.headers["forwarded"] !== undefined || req.headers["x-real-ip"] !== undefined) {
    req.headers[`${peerHeader}-forwarded`] = "1";
  }
}

const server = createServer((req, res) => {
  markPeer(req);
  // A route marked `direct` (a large streamed download) is written to the socket by the app itself
  // (lib/server/http/direct.ts, registered by instrumentation.ts); everything else goes to Next.js.
  // Not under --dev: the module is loaded once, and hot reload would not reach it.
  const direct = dev ? undefined : globalThis.cuescopeDirect;
  (direct ? direct(req, res) : Promise.resolve(false))
    .then((served) => served || handle(req, res))
    .catch((error) => {
      console.error("[cuescope] request failed", error);
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
});
const upgrade = typeof app.getUpgradeHandler === "function" ? app.getUpgradeHandler() : undefined;
if (upgrade) {
  server.on("upgrade", (req, socket, head) => {
    markPeer(req);
    upgrade(req, socket, head);
  });
}
server.on("error", (error) => {
  console.error(`cuescope: cannot listen on ${hostname}:${port}: ${error.message}`);
  process.exit(1);
});
server.listen(port, hostname, () => {
  const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
  console.log(
    `cuescope: listening on http://${shown}:${port}${hostname === "127.0.0.1" ? " (this machine only; set HOST to serve others)" : ""}`,
  );
  // The first request opens the database and starts the background work (the job queue's workers,
  // lib/server/jobs): asked for at once, so rebuilds and replays left over from before run now.
  const local = hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname.includes(":") ? `[${hostname}]` : hostname;
  fetch(`http://${local}:${port}/api/v1/health`).catch(() => {});
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close();
    // The background work (lib/server/background/background.ts, kept on globalThis): running jobs get a
    // few seconds to finish; one cut short is retried by the queue.
    const background = globalThis.cuescopeBackground?.started;
    const closed = background ? background.then((b) => b.close(5_000)).catch(() => {}) : Promise.resolve();
    const deadline = new Promise((done) => setTimeout(done, 8_000).unref());
    Promise.race([closed, deadline]).finally(() => process.exit(0));
  });
}
