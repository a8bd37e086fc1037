import { parentPort } from "node:worker_threads";
import { runTask, type TaskRequest } from "./tasks";

/** A job thread: answers each task message with its result or its error. */
parentPort?.on("message", (request: TaskRequest & { id: number }) => {
  try {
    parentPort!.postMessage({ id: request.id, ok: true, value: runTask(request) });
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    parentPort!.postMessage({ id: request.id, ok: false, error: { name: e.name, message: e.message, stack: e.stack } });
  }
});
