import { resolve } from "node:path";
import { Worker } from "node:worker_threads";
import { env } from "@/lib/server/env";

/**
 * Each thread's entry, from the app's root (where `npm start`, the worker script and the tests run):
 * the process's wiring (lib/server/background), which serves every feature's tasks. A path, not an
 * import: the bundler must not follow it (and a fixed one, which it can be told to leave alone).
 */
const THREAD_ENTRY = "lib/server/background/thread-entry.mjs";

/** Named CPU tasks: each a pure function of structured-cloneable input to structured-cloneable output. */
export type TaskMap = Record<string, { input: unknown; output: unknown }>;

/** The functions of a task map, by name (what a thread, or an inline run, calls). */
export type TaskFunctions<T extends TaskMap> = { [N in keyof T]: (input: T[N]["input"]) => T[N]["output"] };

/**
 * What a job needs of the threads: run one of its tasks. A feature declares the tasks it uses as
 * its own map (rebuild-task.ts's RebuildTasks) and takes `Threads<ThatMap>`; the process's threads
 * (lib/server/background) run every feature's tasks.
 */
export interface Threads<T extends TaskMap> {
  /** `transfer`: buffers of `input` handed to the thread rather than copied (see TaskThreads.run). */
  run<N extends keyof T & string>(name: N, input: T[N]["input"], transfer?: readonly ArrayBuffer[]): Promise<T[N]["output"]>;
}

/**
 * Worker threads for the jobs' CPU work (rebuilds, replays): the server's event loop only moves
 * rows and results, so requests keep being answered while a long run is rebuilt. A fixed number of
 * threads (CUESCOPE_JOB_THREADS), each with a heap limit (CUESCOPE_JOB_THREAD_MB): a task that
 * outgrows it fails alone — its thread is replaced — instead of taking the process down. With 0
 * threads tasks run inline (tests and one-shot scripts). Plumbing: which tasks there are is told
 * by whoever starts the threads (`tasks`); each thread runs THREAD_ENTRY, which serves the same.
 */
export class TaskThreads<T extends TaskMap> implements Threads<T> {
  private readonly idle: Worker[] = [];
  private readonly waiting: Array<(worker: Worker) => void> = [];
  private started = 0;
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly tasks: TaskFunctions<T>,
    readonly size: number = env("CUESCOPE_JOB_THREADS"),
    private readonly heapMb: number = env("CUESCOPE_JOB_THREAD_MB"),
  ) {}

  /**
   * Runs a task on a thread. `transfer`: buffers of `input` handed to the thread rather than copied
   * (each must be a whole ArrayBuffer the caller does not use afterwards: it is emptied here).
   */
  async run<N extends keyof T & string>(name: N, input: T[N]["input"], transfer: readonly ArrayBuffer[] = []): Promise<T[N]["output"]> {
    if (this.size === 0) return this.tasks[name](input);
    const worker = await this.take();
    worker.ref(); // a task in flight keeps the process alive (an idle thread does not)
    const id = this.nextId++;
    return new Promise<T[N]["output"]>((resolvePromise, reject) => {
      const onMessage = (reply: { id: number; ok: boolean; value?: T[N]["output"]; error?: { name: string; message: string } }) => {
        if (reply.id !== id) return;
        cleanup();
        this.give(worker);
        if (reply.ok) resolvePromise(reply.value as T[N]["output"]);
        else reject(Object.assign(new Error(reply.error!.message), { name: reply.error!.name }));
      };
      const onError = (error: Error) => {
        cleanup();
        this.replace(worker);
        const outOfMemory = (error as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY";
        reject(outOfMemory ? new TaskMemoryError(name, this.heapMb) : error);
      };
      const onExit = () => onError(new Error(`the ${name} task's thread stopped`));
      const cleanup = () => {
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
      };
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      worker.postMessage({ id, name, input }, [...transfer]);
    });
  }

  /**
   * Starts every thread now, not at its first task: a thread takes a moment to load the task code,
   * which the first rebuild or replay after the server's start would otherwise wait for.
   */
  warm(): void {
    while (!this.closed && this.started < this.size) {
      this.started++;
      this.give(this.spawn());
    }
  }

  /** How many threads are started (idle or at work). */
  get startedThreads(): number {
    return this.started;
  }

  async close(): Promise<void> {
    this.closed = true;
    const idle = this.idle.splice(0);
    await Promise.all(idle.map((worker) => worker.terminate()));
  }

  private take(): Promise<Worker> {
    if (this.closed) return Promise.reject(new Error("the job threads are closed"));
    const worker = this.idle.pop();
    if (worker) return Promise.resolve(worker);
    if (this.started < this.size) {
      this.started++;
      return Promise.resolve(this.spawn());
    }
    return new Promise((give) => this.waiting.push(give));
  }

  private give(worker: Worker): void {
    const next = this.waiting.shift();
    if (next) next(worker);
    else if (this.closed) void worker.terminate();
    else {
      worker.unref();
      this.idle.push(worker);
    }
  }

  private replace(worker: Worker): void {
    void worker.terminate();
    if (this.closed) return;
    this.give(this.spawn());
  }

  private spawn(): Worker {
    // The entry loads the task sources itself (lib/server/background/thread-entry.mjs); the bundler is told to leave it be.
    const worker = new Worker(/* turbopackIgnore: true */ resolve(process.cwd(), THREAD_ENTRY), {
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb },
      // Not the parent's flags (a test runner's loaders): the entry registers what the thread needs.
      execArgv: [],
    });
    worker.unref();
    // A thread that fails or stops while idle (it could not load, say) leaves the pool: never
    // handed out again, and its error is logged rather than thrown at the process.
    const drop = (error?: Error) => {
      const at = this.idle.indexOf(worker);
      if (at < 0) return; // busy: the task's own listeners handle it
      this.idle.splice(at, 1);
      this.started--;
      if (error) console.error("[cuescope] a job thread failed while idle:", error);
    };
    worker.on("error", drop);
    worker.on("exit", () => drop());
    return worker;
  }
}

/**
 * The buffers of `views` that can be handed to a thread (TaskThreads.run's `transfer`): each view's
 * ArrayBuffer when the view spans all of it (a view into a shared pool is copied instead), once each.
 * `shared`: also the buffers the views only share a part of, when the caller knows no other view
 * into them is used afterwards (a page of rows read into one buffer of its own, say): they are
 * emptied here too.
 */
export function transferableBuffers(views: Iterable<Uint8Array>, options: { shared?: boolean } = {}): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const view of views) {
    if (!(view.buffer instanceof ArrayBuffer)) continue;
    if (options.shared || (view.byteOffset === 0 && view.byteLength === view.buffer.byteLength)) buffers.add(view.buffer);
  }
  return [...buffers];
}

/** A task needed more memory than a job thread may take (CUESCOPE_JOB_THREAD_MB). */
export class TaskMemoryError extends Error {
  override readonly name = "TaskMemoryError";
  constructor(task: string, heapMb: number) {
    super(`the ${task} needed more than the job thread's ${heapMb} MB (CUESCOPE_JOB_THREAD_MB)`);
  }
}

/** Threads that run every task inline, on the caller's thread (tests, one-shot scripts, a settle). */
export function inlineThreads<T extends TaskMap>(tasks: TaskFunctions<T>): Threads<T> {
  return { run: async (name, input) => tasks[name](input) };
}

/**
 * A thread's side: answers each task message with its result or its error (the entry module of a
 * TaskThreads calls this with the same tasks).
 */
export function serveTasks<T extends TaskMap>(port: import("node:worker_threads").MessagePort | null, tasks: TaskFunctions<T>): void {
  port?.on("message", (request: { id: number; name: keyof T; input: unknown }) => {
    try {
      port.postMessage({ id: request.id, ok: true, value: tasks[request.name](request.input as T[keyof T]["input"]) });
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      port.postMessage({ id: request.id, ok: false, error: { name: e.name, message: e.message, stack: e.stack } });
    }
  });
}
