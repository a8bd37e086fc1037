import { resolve } from "node:path";
import { Worker } from "node:worker_threads";
import type {
  ConnectionInfo,
  IsolationLevel,
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  SqlQuery,
  SqlResultSet,
  Transaction,
  TransactionOptions,
} from "@prisma/driver-adapter-utils";
import { isBackgroundWork } from "./pglite-gate";
import { deserializeError, type PgliteReply, type PgliteRequest, type PgliteThreadData } from "./pglite-protocol";

/**
 * The embedded database thread's entry, from the app's root (as the job threads' is: a path the
 * bundler does not follow). It registers tsx and loads pglite-thread.ts.
 */
const THREAD_ENTRY = "lib/server/db/pglite-thread-entry.mjs";

/** Distributes `Omit` over a union, so each operation keeps its own fields. */
type Operation = PgliteRequest extends infer R ? (R extends PgliteRequest ? Omit<R, "id" | "background"> : never) : never;

/** A raw statement's answer: its rows (as PGlite parses them) and how many rows it changed. */
export interface RemoteResult<T = unknown> {
  rows: T[];
  affectedRows?: number;
}

/**
 * The embedded database, run on a thread of its own (pglite-thread.ts): PGlite executes each
 * statement synchronously in WebAssembly, which on the server's thread held every request, timer
 * and socket for as long as a statement ran — a what-if replay's reads slowed every page, and the
 * pages slowed the replay. Here the server's thread only sends statements and takes their answers.
 *
 * The same surface as before: raw `query`/`exec` (migrations, the job queue, ingest's statement),
 * `copy` (a COPY's bytes, handed over without a copy) and a Prisma driver adapter (`prismaAdapter`)
 * whose queries, result sets and transactions are forwarded to Prisma's PGlite adapter on the
 * thread. Statements sent from background work (asBackgroundWork) are marked so, and the thread's
 * gate lets requests' go first, as it did in-process.
 *
 * If the thread stops (it failed to load, ran out of memory), every waiting and later statement
 * fails with a connection error (SQLSTATE 08006), which the app answers with 503 as it does for an
 * unreachable PostgreSQL.
 */
export class RemotePglite {
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private stopped: Error | null = null;
  private closing = false;

  private constructor(
    private readonly worker: Worker,
    /** The Prisma adapter's name and connection info, as the thread's adapter reports them. */
    readonly adapterInfo: { adapterName: string; connectionInfo?: ConnectionInfo },
  ) {
    worker.on("message", (reply: PgliteReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(deserializeError(reply.error));
    });
    const stop = (error: Error) => {
      this.stopped ??= error;
      for (const waiting of this.pending.values()) waiting.reject(this.stopped);
      this.pending.clear();
    };
    worker.on("error", (error) => stop(threadStopped(error.message)));
    worker.on("exit", (code) => stop(threadStopped(this.closing ? "it was closed" : `it exited with code ${code}`)));
  }

  /** Starts the thread and opens the database at `dataDir` on it; fails as opening PGlite would. */
  static start(dataDir: string): Promise<RemotePglite> {
    const worker = new Worker(/* turbopackIgnore: true */ resolve(process.cwd(), THREAD_ENTRY), {
      workerData: { dataDir } satisfies PgliteThreadData,
      // Not the parent's flags (a test runner's loaders): the entry registers what the thread needs.
      execArgv: [],
    });
    return new Promise((resolveStart, rejectStart) => {
      const onMessage = (reply: PgliteReply) => {
        if (reply.id !== 0) return;
        cleanup();
        if (reply.ok) {
          worker.unref(); // an idle database does not keep the process alive; a waiting statement does
          resolveStart(new RemotePglite(worker, reply.value as RemotePglite["adapterInfo"]));
        } else {
          void worker.terminate();
          rejectStart(deserializeError(reply.error));
        }
      };
      const onError = (error: Error) => {
        cleanup();
        rejectStart(error);
      };
      const onExit = (code: number) => onError(new Error(`the embedded database's thread exited with code ${code} while opening`));
      const cleanup = () => {
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
      };
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
    });
  }

  /** One statement with parameters (or none). */
  query<T = unknown>(sql: string, params?: unknown[]): Promise<RemoteResult<T>> {
    return this.send({ op: "query", sql, params }) as Promise<RemoteResult<T>>;
  }

  /** A script of statements without parameters: each statement's answer. */
  exec(sql: string): Promise<RemoteResult[]> {
    return this.send({ op: "exec", sql }) as Promise<RemoteResult[]>;
  }

  /** The bytes `COPY (select) TO … WITH (FORMAT binary)` writes, in a buffer of their own. */
  copy(select: string): Promise<Uint8Array> {
    return this.send({ op: "copy", select }) as Promise<Uint8Array>;
  }

  /** A Prisma driver adapter factory whose every query runs on the thread (Prisma's PGlite adapter there). */
  prismaAdapter(): SqlDriverAdapterFactory {
    return new RemotePrismaFactory(this);
  }

  /** Closes the database (PGlite writes what it must) and ends the thread. */
  async close(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.send({ op: "close" });
    } finally {
      this.closing = true;
      await this.worker.terminate();
    }
  }

  /** Sends one operation and waits for its answer. */
  send(operation: Operation): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise((resolvePromise, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve: resolvePromise, reject });
      try {
        this.worker.postMessage({ ...operation, id, background: isBackgroundWork() } as PgliteRequest);
      } catch (error) {
        // A value structured cloning cannot carry (a function among the parameters): this statement alone fails.
        this.pending.delete(id);
        if (this.pending.size === 0) this.worker.unref();
        reject(error as Error);
      }
    });
  }
}

/** The error every statement gets once the thread has stopped: a lost connection (SQLSTATE 08006), so a 503. */
function threadStopped(why: string): Error {
  return Object.assign(new Error(`the embedded database's thread stopped: ${why}`), { code: "08006" });
}

class RemotePrismaFactory implements SqlDriverAdapterFactory {
  readonly provider = "postgres";
  readonly adapterName: string;

  constructor(private readonly remote: RemotePglite) {
    this.adapterName = remote.adapterInfo.adapterName;
  }

  connect(): Promise<SqlDriverAdapter> {
    return Promise.resolve(new RemotePrismaAdapter(this.remote, this.adapterName));
  }
}

/** Prisma's queries on the database's thread: outside a transaction (`tx` unset) or in transaction `tx`. */
class RemoteQueryable {
  readonly provider = "postgres";

  constructor(
    protected readonly remote: RemotePglite,
    readonly adapterName: string,
    protected readonly tx?: number,
  ) {}

  queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    return this.remote.send({ op: "prisma.query", query, tx: this.tx }) as Promise<SqlResultSet>;
  }

  executeRaw(query: SqlQuery): Promise<number> {
    return this.remote.send({ op: "prisma.execute", query, tx: this.tx }) as Promise<number>;
  }
}

class RemotePrismaAdapter extends RemoteQueryable implements SqlDriverAdapter {
  async executeScript(script: string): Promise<void> {
    await this.remote.send({ op: "prisma.script", script });
  }

  async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
    const { tx, options } = (await this.remote.send({ op: "prisma.begin", isolationLevel })) as { tx: number; options: TransactionOptions };
    return new RemoteTransaction(this.remote, this.adapterName, tx, options);
  }

  getConnectionInfo(): ConnectionInfo {
    return this.remote.adapterInfo.connectionInfo ?? { supportsRelationJoins: true };
  }

  dispose(): Promise<void> {
    return Promise.resolve();
  }
}

class RemoteTransaction extends RemoteQueryable implements Transaction {
  constructor(
    remote: RemotePglite,
    adapterName: string,
    private readonly id: number,
    readonly options: TransactionOptions,
  ) {
    super(remote, adapterName, id);
  }

  async commit(): Promise<void> {
    await this.remote.send({ op: "prisma.commit", tx: this.id });
  }

  async rollback(): Promise<void> {
    await this.remote.send({ op: "prisma.rollback", tx: this.id });
  }
}
