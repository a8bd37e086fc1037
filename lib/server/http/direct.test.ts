import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZEvent, type TEvent } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { taskThreads } from "@/lib/server/background/tasks";
import { authenticate, createKey } from "@/lib/server/auth/keys";
import { useDatabase, type Database } from "@/lib/server/db";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { rebuildRun } from "@/lib/server/rebuild/rebuild-run";
import { DECISION_CHUNK_TURNS } from "@/lib/server/runs/decision-chunks";
import { wholeReads } from "@/lib/server/runs/whole-reads";
import { testDatabases } from "@/lib/server/testing/databases";
import type { DocumentPieces } from "@/lib/server/export/streamed-download";
import { serveDirect, writeDocument } from "./direct";

/**
 * The decisions download as scripts/server.mjs serves it: a real node:http server whose handler is
 * what server.mjs does (serveDirect first; anything it does not serve is "not direct" here, where
 * Next.js would take it), requested over TCP.
 */
interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(base: string, path: string, headers: Record<string, string>, method = "GET"): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers }, (res) => {
      const pieces: Buffer[] = [];
      res.on("data", (piece: Buffer) => pieces.push(piece));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(pieces) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!condition()) throw new Error(`timed out waiting until ${what}`);
}

describe.each(testDatabases())("the decisions download written to the socket (serveDirect) on $name", (kind) => {
  let db: Database;
  let server: Server;
  let base: string;
  let key: string;
  let projectId: string;
  // Three stored chunks, the last one partly filled.
  const TURNS = 2 * DECISION_CHUNK_TURNS + 30;
  const events = generateEtfRun({ runId: "direct", seed: 11, turns: TURNS, anomalies: true }).events.map((e) => ZEvent.parse(e) as TEvent);
  const expected = JSON.stringify(rebuild(events));

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    key = (await createKey(db, "direct")).secret;
    projectId = (await authenticate(db, `Bearer ${key}`)).projectId;
    for (let at = 0; at < events.length; at += 2_000)
      expect((await ingestBatch(db, projectId, events.slice(at, at + 2_000))).summary.error).toBe(0);
    const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId: "direct" } } });
    expect(await rebuildRun(db, taskThreads(0), projectId, run.id)).toMatchObject({ ok: true });
    server = createServer((req, res) => {
      serveDirect(req, res)
        .then((served) => {
          if (!served) res.writeHead(418).end("not direct");
        })
        .catch((error: unknown) => res.writeHead(599).end(String(error)));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await db?.close();
  });

  const auth = () => ({ authorization: `Bearer ${key}` });

  it("sends the rebuilt decisions' JSON, byte for byte, uncompressed or gzipped as the client asks, and frees the read", async () => {
    const plain = await get(base, "/api/v1/runs/direct/decisions", { ...auth(), "accept-encoding": "identity" });
    expect(plain.status).toBe(200);
    expect(plain.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(plain.headers["cache-control"]).toBe("no-store");
    expect(plain.headers["x-cuescope-stale-events"]).toBe("0");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(expected);

    const zipped = await get(base, "/api/v1/runs/direct/decisions", { ...auth(), "accept-encoding": "gzip, deflate, br" });
    expect([zipped.status, zipped.headers["content-encoding"], zipped.headers.vary]).toEqual([200, "gzip", "accept-encoding"]);
    expect(zipped.body.length).toBeLessThan(plain.body.length / 4);
    expect(gunzipSync(zipped.body).toString()).toBe(expected);

    // gzip refused (q=0) is identity.
    const refused = await get(base, "/api/v1/runs/direct/decisions", { ...auth(), "accept-encoding": "gzip;q=0" });
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(refused.body.toString()).toBe(expected);
    await until(() => wholeReads().active(projectId) === 0, "the reads are released");
  });

  it("answers a HEAD with the GET's headers and no body, and errors as the API's JSON errors", async () => {
    const head = await get(base, "/api/v1/runs/direct/decisions", auth(), "HEAD");
    expect([head.status, head.headers["x-cuescope-stale-events"], head.body.length]).toEqual([200, "0", 0]);
    expect(wholeReads().active(projectId)).toBe(0);

    const missing = await get(base, "/api/v1/runs/nope/decisions", auth());
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body.toString())).toMatchObject({ error: { code: "not_found" } });

    const anonymous = await get(base, "/api/v1/runs/direct/decisions", {});
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body.toString())).toMatchObject({ error: { code: "unauthorized" } });
  });

  it("leaves every other request to Next.js", async () => {
    for (const [method, path] of [
      ["GET", "/api/v1/runs/direct"],
      ["GET", "/api/v1/runs/direct/timeline"],
      ["POST", "/api/v1/runs/direct/decisions"],
      ["GET", "/runs/direct"],
      ["GET", "/api/v1/nothing/here"],
    ])
      expect((await get(base, path, auth(), method)).status, `${method} ${path}`).toBe(418);
  });
});

describe("writeDocument", () => {
  /** A document of endless 64 kB pieces that counts what it gave and whether it was closed. */
  function endless(): DocumentPieces & { given: number; closed: number } {
    const piece = new Uint8Array(65_536).fill(0x20);
    const document = {
      given: 0,
      closed: 0,
      next: async () => (document.given++, piece),
      close: () => void document.closed++,
    };
    return document;
  }

  async function serving(
    document: DocumentPieces,
    idleMs: number,
    { gzip = false, afterClose = false } = {},
  ): Promise<{ base: string; stop: () => Promise<void>; written: Promise<void> }> {
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const server = createServer((_req, res) => {
      const write = () => void writeDocument(res, { document, label: "test download", idleMs }, gzip).then(wrote);
      // afterClose: as when the client left while the route still read the first page.
      if (afterClose) res.once("close", () => setTimeout(write, 20));
      else write();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return {
      written,
      base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      stop: async () => {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  }

  it("reads a piece only when the socket took the previous ones, and closes the document once when the client goes away", async () => {
    const document = endless();
    const { base, stop } = await serving(document, 60_000);
    try {
      const req = httpRequest(base);
      req.on("error", () => {});
      const res = await new Promise<import("node:http").IncomingMessage>((resolve) => req.on("response", resolve).end());
      res.pause(); // the client reads nothing more: the server stops at what the socket buffers hold
      await new Promise((resolve) => setTimeout(resolve, 300));
      const held = document.given;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(document.given).toBe(held); // backpressure: no piece read while nothing was taken
      expect(held).toBeLessThan(1_000); // far from endless: what the socket's buffers hold (< 64 MB)
      expect(document.closed).toBe(0);
      req.destroy();
      await until(() => document.closed === 1, "the document is closed");
    } finally {
      await stop();
    }
    expect(document.closed).toBe(1);
  });

  it("disconnects a client that reads nothing for idleMs, and closes the document", async () => {
    const document = endless();
    const { base, stop } = await serving(document, 200);
    const req = httpRequest(base);
    try {
      req.on("error", () => {});
      req.on("response", (res) => res.pause()); // a client that stopped reading without going away
      req.end();
      await until(() => document.closed === 1, "the idle download is closed");
      const given = document.given;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(document.given).toBe(given);
    } finally {
      req.destroy();
      await stop();
    }
  });

  it("closes the document at once, and ends, when the client went away before the first piece was written", async () => {
    const document = endless();
    const { base, stop, written } = await serving(document, 60_000, { afterClose: true });
    try {
      const req = httpRequest(base);
      req.on("error", () => {});
      req.end();
      await new Promise((resolve) => setTimeout(resolve, 100));
      req.destroy();
      await written;
      expect([document.closed, document.given]).toEqual([1, 0]);
    } finally {
      await stop();
    }
  });

  it("gzipped: closes the document once when the client goes away mid-way", async () => {
    const document = endless();
    const { base, stop } = await serving(document, 60_000, { gzip: true });
    try {
      const req = httpRequest(base);
      req.on("error", () => {});
      const res = await new Promise<import("node:http").IncomingMessage>((resolve) => req.on("response", resolve).end());
      expect(res.headers["content-encoding"]).toBeUndefined(); // writeDocument sends the body; the headers are serveDirect's
      await new Promise((resolve) => res.once("data", resolve));
      req.destroy();
      await until(() => document.closed === 1, "the document is closed");
    } finally {
      await stop();
    }
  });
});
