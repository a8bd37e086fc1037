import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serveApi } from "@/lib/server/http/api";
import { ingestRoute as POST } from "@/lib/server/http/routes";
import { createKey } from "@/lib/server/auth/keys";
// `useDatabase` sets the routes' database; it is not a React hook (the alias keeps the hooks lint rule quiet).
import { useDatabase as setRoutesDatabase, type Database } from "@/lib/server/db";
import type { TestDatabase } from "@/lib/server/testing/databases";

/** How the hosted route misbehaves; each field is read per request, so a test may change it mid-way. */
export interface HostFaults {
  /** The next `failFirst` requests are answered 503 (Retry-After: 0) without reaching the route. */
  failFirst: number;
  /** The next `slowFirst` requests are answered late: held `delayMs` before the route (`"before"`) or after it stored the batch (`"after"`). */
  slowFirst: number;
  delayMs: number;
  slowMode: "before" | "after";
  /** Every request is held this long before the route (a slow network, no timeout meant). */
  latencyMs: number;
}

export interface IngestHost {
  server: Server;
  url: string;
  port: number;
  faults: HostFaults;
  /** Requests received (including the ones answered 503 or late). */
  requests: number;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A plain Node http server on 127.0.0.1 whose handler is the app's real ingest route (the route
 * uses the database `useDatabase` set), and the app's API entry (serveApi) for any other path. `port` 0 takes a free port; a given port is taken again
 * (a server that comes back after it was down).
 */
export function hostIngest(port = 0, faults: Partial<HostFaults> = {}): Promise<IngestHost> {
  const host: Omit<IngestHost, "server" | "url" | "port"> & Partial<IngestHost> = {
    faults: { failFirst: 0, slowFirst: 0, delayMs: 0, slowMode: "after", latencyMs: 0, ...faults },
    requests: 0,
    close: () => new Promise<void>((resolve) => (host.server ? host.server.close(() => resolve()) : resolve())),
  };
  const server = createServer(async (req, res) => {
    host.requests++;
    const body = await readBody(req);
    const f = host.faults;
    if (f.latencyMs > 0) await wait(f.latencyMs);
    if (f.failFirst > 0) {
      f.failFirst--;
      res.writeHead(503, { "retry-after": "0" }).end("warming up");
      return;
    }
    const slow = f.slowFirst > 0;
    if (slow) f.slowFirst--;
    if (slow && f.slowMode === "before") await wait(f.delayMs);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    // The ingest route itself; any other path goes through the API's one entry (an experiment's read and assignment).
    const route = (req.url ?? "").split("?")[0] === "/api/v1/ingest" ? POST : serveApi;
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const response = await route(
      new Request(`http://localhost${req.url}`, { method: req.method, headers, ...(hasBody ? { body: new Uint8Array(body) } : {}) }),
    );
    const answer = Buffer.from(await response.arrayBuffer());
    if (slow && f.slowMode === "after") await wait(f.delayMs);
    if (res.destroyed) return; // the client gave up waiting
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(answer);
  });
  server.keepAliveTimeout = 1000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const actual = (server.address() as AddressInfo).port;
      Object.assign(host, { server, port: actual, url: `http://127.0.0.1:${actual}` });
      resolve(host as IngestHost);
    });
  });
}

/** A test's database, a key of one project in it, and the ingest route hosted on it. */
export interface HostedIngest {
  db: Database;
  key: string;
  host: IngestHost;
}

/** Opens `kind`'s database (made the route's), creates a key of `project` and hosts the ingest route on a free port. */
export async function openHostedIngest(kind: TestDatabase, project: string): Promise<HostedIngest> {
  const db = await kind.open();
  setRoutesDatabase(db);
  return { db, key: (await createKey(db, project)).secret, host: await hostIngest() };
}

/** Closes what openHostedIngest opened (either part may be missing when opening failed). */
export async function closeHostedIngest(hosted: Partial<HostedIngest>): Promise<void> {
  await hosted.host?.close();
  await hosted.db?.close();
}

/** A port that was free a moment ago (nothing listens on it now). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
