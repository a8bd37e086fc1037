import { z } from "zod";

/**
 * Every environment variable the server and the scripts read, in one place: what it does, its
 * default, and the schema its text must pass. Code reads a variable with `env("NAME")`, never
 * `process.env` (the exceptions: `scripts/server.mjs`, plain JavaScript run before any of this,
 * which reads `PORT` and `HOST` and sets `CUESCOPE_PEER_HEADER`; `prisma.config.ts`, read by the
 * Prisma CLI; Next's own `NEXT_RUNTIME`; and child processes handed a copy of the environment).
 *
 * A variable is read when it is asked for, so a test may set it between calls. A blank value counts
 * as unset. A value that does not pass its schema is reported once, naming the variable, the value
 * and what was expected, and the default is used — the server keeps running on a typo, as it
 * always has, but says so. The variables marked `internal` are set by Cuescope's own tools, not by
 * an operator; the others are documented in docs/operations.md (a test checks that).
 */

/** A time limit in whole milliseconds, 0 turning it off. */
const zMs = z.coerce.number().int().min(0).max(2_147_483_647);
const MS = "a whole number of milliseconds (0 = off)";

interface Variable<T> {
  schema: z.ZodType<T>;
  fallback: T;
  /** What a valid value looks like, for the warning. */
  expected: string;
  doc: string;
  internal?: boolean;
}

function variable<T>(schema: z.ZodType<T>, fallback: T, expected: string, doc: string, internal = false): Variable<T> {
  return { schema, fallback, expected, doc, internal };
}

const text = z.string();
const ms = (fallback: number, doc: string) => variable<number>(zMs, fallback, MS, doc);

/** `0`/`false`: none; `true`: one; else a positive whole number of proxies. */
const zHops = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(
    z.union([
      z.literal(["0", "false"]).transform(() => 0),
      z.literal("true").transform(() => 1),
      z.coerce.number<string>().int().positive(),
    ]),
  );

/** `true`/`1`/`yes` or `false`/`0`/`no`. */
const zBool = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.union([z.literal(["true", "1", "yes"]).transform(() => true), z.literal(["false", "0", "no"]).transform(() => false)]));

/** Host names, comma-separated: each lower-cased, a port dropped (`[::1]:3000` → `[::1]`). */
const zHostList = z
  .string()
  .transform((text) =>
    text
      .split(",")
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().regex(/^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(:\d+)?$/)))
  .transform((hosts) => hosts.map((host) => host.replace(/:\d+$/, "")));

export const ENV = {
  DATABASE_URL: variable<string | undefined>(
    text,
    undefined,
    "a PostgreSQL URL",
    "PostgreSQL to use (`postgresql://…`); unset: the embedded PGlite database",
  ),
  CUESCOPE_DATA_DIR: variable(text, ".cuescope/data", "a directory", "the embedded database's directory (`memory://` for one in memory)"),
  CUESCOPE_MIGRATIONS_DIR: variable<string | undefined>(
    text,
    undefined,
    "a directory",
    "where the migrations are (default: prisma/migrations under the working directory)",
    true,
  ),
  CUESCOPE_SERVER_URL: variable<string | undefined>(
    text,
    undefined,
    "a URL",
    "set by `npm start` (scripts/server.mjs): this server's address, recorded in the embedded database's lock",
    true,
  ),
  CUESCOPE_PEER_HEADER: variable<string | undefined>(
    text,
    undefined,
    "a header name",
    "set by scripts/server.mjs: the private header carrying the TCP peer's address",
    true,
  ),
  CUESCOPE_TRUST_PROXY: variable(
    zHops,
    0,
    "a number of proxy hops (0/false, true = 1, or a positive whole number)",
    "read forwarded headers from that many trusted proxies; unset: they are ignored",
  ),
  CUESCOPE_ALLOWED_HOSTS: variable(
    zHostList,
    [],
    "comma-separated host names (e.g. cuescope.example.com,10.0.0.5)",
    "the host names browsers may reach this server by, besides loopback ones (localhost, 127.0.0.0/8, [::1]); pages and browser sessions under any other Host are refused (DNS rebinding). API keys work under any host",
  ),
  CUESCOPE_PUBLIC_URL: variable<string | undefined>(
    text,
    undefined,
    "a URL (e.g. https://cuescope.example.com)",
    "the address people open Cuescope at; single sign-on sends them back to {it}/api/auth/callback/sso. Unset: the address `npm start` listens on",
  ),
  CUESCOPE_AUTH_SECRET: variable<string | undefined>(
    text,
    undefined,
    "at least 32 characters",
    "signs people's session cookies; unset: a secret made once and kept in the database",
  ),
  CUESCOPE_SETUP_LINK_FILE: variable<string | undefined>(
    text,
    undefined,
    "a file path",
    "`npm start` also writes the first administrator's setup link there (mode 600), for automation that cannot read its output",
  ),
  CUESCOPE_OIDC_ISSUER: variable<string | undefined>(
    text,
    undefined,
    "a URL (the provider's issuer)",
    "single sign-on with an OpenID Connect provider (with the client id and secret below); unset: email and password only",
  ),
  CUESCOPE_OIDC_CLIENT_ID: variable<string | undefined>(
    text,
    undefined,
    "a client id",
    "Cuescope's client id at the OpenID Connect provider",
  ),
  CUESCOPE_OIDC_CLIENT_SECRET: variable<string | undefined>(
    text,
    undefined,
    "a client secret",
    "Cuescope's client secret at the OpenID Connect provider",
  ),
  CUESCOPE_OIDC_NAME: variable(text, "single sign-on", "a name", "what the sign-in button calls the provider (`Continue with …`)"),
  CUESCOPE_WEBHOOK_ALLOW_PRIVATE: variable(
    zBool,
    false,
    "true or false",
    "whether alert webhooks may go to private, loopback and link-local addresses (a receiver inside your network); off, such targets are refused when a rule is saved and when a host name resolves to one at send time (server-side request forgery, docs/alerts.md). Never this server itself",
  ),
  CUESCOPE_WEBHOOK_TIMEOUT_MS: variable(
    z.coerce.number().int().min(100).max(60_000),
    10_000,
    "milliseconds from 100 to 60000",
    "how long one webhook attempt waits for the receiver's answer (at most a minute: an attempt still running after two is retried)",
  ),
  CUESCOPE_INGEST_CONCURRENCY: variable(
    z.coerce.number().int().positive(),
    4,
    "a positive whole number",
    "at most this many ingest transactions at once on PostgreSQL (PGlite: 1)",
  ),
  CUESCOPE_RUN_CACHE_MB: variable(
    z.coerce.number().positive(),
    64,
    "a positive number of megabytes",
    "the bound on each in-process cache of a run's derived data (parsed decisions, findings, timelines, what-if replays)",
  ),
  CUESCOPE_WORKERS: variable(
    z.coerce.number().int().min(0).max(64),
    1,
    "a whole number from 0 to 64",
    "background jobs (rebuilds, replays) this process runs at once; 0: none here (another process works the queue)",
  ),
  CUESCOPE_JOB_THREADS: variable(
    z.coerce.number().int().min(0).max(64),
    1,
    "a whole number from 0 to 64",
    "worker threads for the jobs' CPU work (rebuilding, replaying); 0: on the main thread (tests, scripts)",
  ),
  CUESCOPE_JOB_THREAD_MB: variable(
    z.coerce.number().int().min(64),
    2_048,
    "a whole number of megabytes, at least 64",
    "the heap limit of each job thread: a job that needs more fails with a clear error instead of taking the server down",
  ),
  CUESCOPE_PROJECT_JOBS: variable(
    z.coerce.number().int().positive(),
    1,
    "a positive whole number",
    "at most this many rebuilds of one project at once in this process; a further one waits in its worker slot",
  ),
  CUESCOPE_REBUILD_DELAY_MS: ms(500, "how long a run's rebuild waits after new events, gathering more into the same rebuild"),
  CUESCOPE_DECISIONS_WAIT_MS: ms(
    20_000,
    "how long `GET /runs/:runId/decisions` waits for a pending rebuild before answering with the last built (stale) decisions",
  ),
  CUESCOPE_WHOLE_READS: variable(
    z.coerce.number().int().positive(),
    2,
    "a positive whole number",
    "at most this many reads of a whole run's decisions (`GET …/decisions`, a replay's turn view) of one project at once in this process",
  ),
  CUESCOPE_WHOLE_READ_WAIT_MS: ms(
    2_000,
    "how long a read of a whole run's decisions waits for one of its project's CUESCOPE_WHOLE_READS before answering 503 with Retry-After",
  ),
  CUESCOPE_REPLAY_EXPIRE_S: variable(
    z.coerce.number().int().min(1).max(86_400),
    900,
    "a whole number of seconds",
    "the longest one attempt of a replay may run, read when a worker takes it: one still running then is taken back and retried",
  ),
  CUESCOPE_REPLAY_HEARTBEAT_S: variable(
    z.coerce.number().int().min(1).max(3_600),
    5,
    "a whole number of seconds",
    "how often a working replay is marked alive, and how often workers look for replays whose worker was lost",
  ),
  CUESCOPE_REPLAY_LOST_S: variable(
    z.coerce.number().int().min(2).max(86_400),
    30,
    "a whole number of seconds",
    "a running replay not marked alive for this long is taken as lost with its worker and retried (keep it a few heartbeats long)",
  ),
  CUESCOPE_HEALTH_TIMEOUT_MS: variable(
    z.coerce.number().int().positive(),
    3_000,
    "a positive whole number of milliseconds",
    "the health check's limit on `SELECT 1`, opening included",
  ),
  CUESCOPE_DB_CONNECT_TIMEOUT_MS: ms(5_000, "opening a connection, and waiting for a free pooled one"),
  CUESCOPE_DB_STATEMENT_TIMEOUT_MS: ms(15_000, "one statement, on the server (`statement_timeout`)"),
  CUESCOPE_DB_LOCK_TIMEOUT_MS: ms(10_000, "waiting for a lock (`lock_timeout`)"),
  CUESCOPE_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: ms(60_000, "a session left idle inside a transaction"),
  CUESCOPE_DB_QUERY_TIMEOUT_MS: variable<number | undefined>(
    zMs,
    undefined,
    MS,
    "any answer, on the client; unset: the statement timeout + 2000 (0 when that is off)",
  ),
  CUESCOPE_DB_OPEN_TIMEOUT_MS: ms(20_000, "how long a request waits for the database to open"),
  CUESCOPE_DB_MIGRATION_TIMEOUT_MS: ms(300_000, "the statement timeout while migrations run at start-up"),
  CUESCOPE_URL: variable<string | undefined>(text, undefined, "a URL", "where `import` and `demo` send, when not to the local server"),
  CUESCOPE_API_KEY: variable<string | undefined>(text, undefined, "an API key", "the key `import`, `demo` and the load test send with"),
  CHROMIUM_PATH: variable(text, "/usr/bin/chromium", "a path", "the Chromium the e2e tests and the page benchmark drive", true),
} satisfies Record<string, Variable<unknown>>;

export type EnvName = keyof typeof ENV;
export type EnvValue<K extends EnvName> = (typeof ENV)[K]["fallback"];
export type EnvSource = Record<string, string | undefined>;

/** One variable, parsed (blank = unset = its default; invalid = reported once, then its default). */
export function env<K extends EnvName>(name: K, source: EnvSource = process.env): EnvValue<K> {
  const spec = ENV[name] as Variable<EnvValue<K>>;
  const raw = source[name];
  if (raw === undefined || raw.trim() === "") return spec.fallback;
  const parsed = spec.schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  warnOnce(
    `${name}=${raw}`,
    `[cuescope] ${name}=${JSON.stringify(raw)} is not ${spec.expected}; using ${spec.fallback === undefined ? "the default" : JSON.stringify(spec.fallback)}`,
  );
  return spec.fallback;
}

/** Every variable at once (for a start-up report or a test). */
export function readEnv(source: EnvSource = process.env): { [K in EnvName]: EnvValue<K> } {
  return Object.fromEntries(Object.keys(ENV).map((name) => [name, env(name as EnvName, source)])) as { [K in EnvName]: EnvValue<K> };
}

const warned = new Set<string>();
function warnOnce(key: string, message: string): void {
  if (warned.has(key)) return;
  warned.add(key);
  console.warn(message);
}
