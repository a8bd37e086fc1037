import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { IsolationLevel, SqlDriverAdapter, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { COPY_DEVICE_PATH, copyToDevice } from "./pglite-copy-device";
import { asBackgroundWork, gatedPglite } from "./pglite-gate";
import { serializeError, type PgliteReply, type PgliteRequest, type PgliteThreadData } from "./pglite-protocol";

/**
 * The embedded database's thread (started by pglite-remote.ts): PGlite runs here, each statement
 * synchronously in WebAssembly, so the server's own thread keeps answering requests meanwhile.
 * Every statement goes through the gate (pglite-gate.ts: requests' before background work's, this
 * thread's loop turning between two statements to take in the next messages); Prisma's PGlite
 * adapter runs here too, so what crosses between the threads is plain data — Prisma's queries and
 * result sets, the raw queries' rows, a COPY's bytes (handed over, not copied).
 */
async function serve(): Promise<void> {
  const port = parentPort!;
  const { dataDir } = workerData as PgliteThreadData;
  let pglite: PGlite;
  try {
    // pg_trgm backs the runs list's task search index (a migration creates the extension).
    pglite = await PGlite.create({ dataDir, extensions: { pg_trgm } });
  } catch (error) {
    port.postMessage({ id: 0, ok: false, error: serializeError(error) } satisfies PgliteReply);
    return;
  }
  const gated = gatedPglite(pglite);
  const copyDevice = copyToDevice(pglite);
  const factory = new PrismaPGlite(gated);
  const adapter: SqlDriverAdapter = await factory.connect();
  const transactions = new Map<number, Transaction>();
  let nextTransaction = 1;

  const transaction = (id: number | undefined): Transaction => {
    const tx = id === undefined ? undefined : transactions.get(id);
    if (!tx) throw new Error(`transaction ${id} is not open on the embedded database`);
    return tx;
  };
  const queryable = (tx: number | undefined) => (tx === undefined ? adapter : transaction(tx));

  const handle = async (request: PgliteRequest): Promise<{ value: unknown; transfer?: ArrayBuffer[] }> => {
    switch (request.op) {
      case "query": {
        const result = await gated.query(request.sql, request.params);
        return { value: { rows: result.rows, affectedRows: result.affectedRows } };
      }
      case "exec": {
        const results = await gated.exec(request.sql);
        return { value: results.map((r) => ({ rows: r.rows, affectedRows: r.affectedRows })) };
      }
      case "copy": {
        // The COPY's output goes to a device of PGlite's file system that collects it in one buffer
        // (pglite-copy-device.ts), handed to the server's thread whole.
        try {
          await gated.query(`COPY (${request.select}) TO '${COPY_DEVICE_PATH}' WITH (FORMAT binary)`);
        } catch (error) {
          copyDevice.discard();
          throw error;
        }
        const bytes = copyDevice.take();
        return { value: bytes, transfer: [bytes.buffer as ArrayBuffer] };
      }
      case "prisma.query":
        return { value: await queryable(request.tx).queryRaw(request.query as SqlQuery) };
      case "prisma.execute":
        return { value: await queryable(request.tx).executeRaw(request.query as SqlQuery) };
      case "prisma.script":
        return { value: await adapter.executeScript(request.script) };
      case "prisma.begin": {
        const tx = await adapter.startTransaction(request.isolationLevel as IsolationLevel | undefined);
        const id = nextTransaction++;
        transactions.set(id, tx);
        return { value: { tx: id, options: tx.options } };
      }
      case "prisma.commit":
      case "prisma.rollback": {
        const tx = transaction(request.tx);
        transactions.delete(request.tx);
        await (request.op === "prisma.commit" ? tx.commit() : tx.rollback());
        return { value: undefined };
      }
      case "close":
        await pglite.close();
        return { value: undefined };
    }
  };

  port.on("message", (request: PgliteRequest) => {
    const run = () => handle(request);
    void (request.background ? asBackgroundWork(run) : run()).then(
      ({ value, transfer }) => {
        try {
          port.postMessage({ id: request.id, ok: true, value } satisfies PgliteReply, transfer ?? []);
        } catch (error) {
          // An answer structured cloning cannot carry fails its statement, not the thread.
          port.postMessage({ id: request.id, ok: false, error: serializeError(error) } satisfies PgliteReply);
        }
      },
      (error: unknown) => port.postMessage({ id: request.id, ok: false, error: serializeError(error) } satisfies PgliteReply),
    );
  });
  port.postMessage({
    id: 0,
    ok: true,
    value: { adapterName: factory.adapterName, connectionInfo: adapter.getConnectionInfo?.() },
  } satisfies PgliteReply);
}

void serve();
