/**
 * The messages between the server's thread and the embedded database's (pglite-remote.ts sends,
 * pglite-thread.ts answers): plain data only, as structured cloning carries it.
 */

/** What the database's thread is started with. */
export interface PgliteThreadData {
  dataDir: string;
}

/** What each request carries besides its operation. */
interface Envelope {
  id: number;
  /** Sent from background work (asBackgroundWork): the thread's gate lets requests' statements go first. */
  background: boolean;
}

export type PgliteRequest = Envelope &
  (
    | { op: "query"; sql: string; params?: unknown[] }
    | { op: "exec"; sql: string }
    | { op: "copy"; select: string }
    | { op: "prisma.query" | "prisma.execute"; query: unknown; tx?: number }
    | { op: "prisma.script"; script: string }
    | { op: "prisma.begin"; isolationLevel?: string }
    | { op: "prisma.commit" | "prisma.rollback"; tx: number }
    | { op: "close" }
  );

/** The answer to request `id` (0: the thread's start, with the adapter's name, or why it failed). */
export type PgliteReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedError };

/** An error as it crosses threads: its name, message and stack, its plain fields (a SQLSTATE `code`…), and Prisma's `cause`. */
export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  fields: Record<string, string | number | boolean>;
  cause?: unknown;
}

/**
 * An error made ready to cross threads. Structured cloning keeps an Error's message but drops its
 * own fields, and the app reads those (lib/server/db/errors.ts: `code`, `originalCode`…); Prisma
 * knows a driver adapter's error by its name and its `cause`, a plain object.
 */
export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error), fields: {} };
  const fields: SerializedError["fields"] = {};
  for (const [key, value] of Object.entries(error)) {
    if (key === "cause") continue;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") fields[key] = value;
  }
  const cause = (error as { cause?: unknown }).cause;
  let plainCause: unknown;
  if (cause instanceof Error) plainCause = serializeError(cause);
  else if (cause !== null && typeof cause === "object") plainCause = structuredCloneable(cause);
  return { name: error.name, message: error.message, stack: error.stack, fields, cause: plainCause };
}

/**
 * The error again, on the other side: an Error with the same name, message, stack and fields. A
 * cause that was an Error is one again; a plain one (a driver adapter error's) stays plain.
 */
export function deserializeError(serialized: SerializedError): Error {
  const error = new Error(serialized.message) as Error & Record<string, unknown>;
  Object.assign(error, serialized.fields);
  error.name = serialized.name;
  if (serialized.stack) error.stack = serialized.stack;
  const cause = serialized.cause;
  if (cause !== undefined) {
    error.cause = isSerializedError(cause) ? deserializeError(cause) : cause;
  }
  return error;
}

function isSerializedError(value: unknown): value is SerializedError {
  return typeof value === "object" && value !== null && "fields" in value && "message" in value && "name" in value;
}

/** `value` if it clones (plain data), else its JSON form, else nothing. */
function structuredCloneable(value: object): unknown {
  try {
    return structuredClone(value);
  } catch {
    try {
      return JSON.parse(JSON.stringify(value)) as unknown;
    } catch {
      return undefined;
    }
  }
}
