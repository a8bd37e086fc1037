/**
 * The production server the scale bench reads through (`scripts/start.sh`, as `npm start` runs it,
 * with the build it finds), and timed HTTP requests against it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { SESSION_COOKIE } from "@/lib/server/auth/sessions";
import { benchPort, percentile } from "./common";
import type { ScratchDatabase } from "./scale-db";

/** Inside the bench's port range (3300–3399), away from the other sections' 3311 and 3312. */
const PORT = benchPort(3340);

export interface ScaleServer {
  base: string;
  /** The server process's id (start.sh execs it). */
  pid: number;
  /** The server's last 4,000 characters of output (stdout and stderr). */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Runs `work` against a production server on the database, stopped afterwards. A failure carries
 * the server's last output (a request to a server that died only says "fetch failed").
 */
export async function withServer<T>(database: ScratchDatabase, work: (base: string, server: ScaleServer) => Promise<T>): Promise<T> {
  const server = await startScaleServer(database);
  try {
    return await work(server.base, server);
  } catch (error) {
    await new Promise((resolve) => setTimeout(resolve, 1000)); // let a dying server's last words arrive
    throw new Error(`${(error as Error).message} (${(error as Error).cause ?? "no cause"}); the server's last output:\n${server.log()}`, {
      cause: error,
    });
  } finally {
    await server.stop();
  }
}

export function hasProductionBuild(): boolean {
  return existsSync(".next/BUILD_ID");
}

/** Starts the production server on the scratch database (close it in this process first on PGlite). */
export async function startScaleServer(database: ScratchDatabase): Promise<ScaleServer> {
  const base = `http://127.0.0.1:${PORT}`;
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(PORT), CUESCOPE_BUILD: "never", NEXT_TELEMETRY_DISABLED: "1" };
  for (const [name, value] of Object.entries(database.serverEnv())) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const child: ChildProcess = spawn("bash", ["scripts/start.sh"], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let stderr = "";
  let stopping = false;
  const keep = (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  child.on("exit", (code, signal) => {
    if (!stopping) stderr += `\n(the server exited: code ${code}, signal ${signal})`;
  });
  const stop = async () => {
    stopping = true;
    if (child.pid && child.exitCode === null) process.kill(-child.pid, "SIGTERM"); // start.sh and the server it execs
    await new Promise((resolve) => setTimeout(resolve, 1000));
  };
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${stderr}`);
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) return { base, pid: child.pid!, stop, log: () => stderr };
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stop();
  throw new Error(`the server did not answer /api/v1/health within 120 s:\n${stderr}`);
}

/** A client of one project: timed GETs and JSON requests with its key. */
export function apiClient(base: string, key: string) {
  return httpClient(base, { authorization: `Bearer ${key}` });
}

/** A browser signed in to a project: its session cookie (the pages read it, not a key). */
export function pageClient(base: string, sessionToken: string) {
  return httpClient(base, { cookie: `${SESSION_COOKIE}=${sessionToken}` });
}

/** Timed GETs and JSON requests that all send `headers`. */
function httpClient(base: string, headers: Record<string, string>) {
  return {
    /** Milliseconds from sending the GET until its whole body has arrived; an answer other than 200 (or one of `also`) is an error. */
    async timeGet(path: string, also: readonly number[] = []): Promise<number> {
      const started = process.hrtime.bigint();
      // A redirect (a page's to /login) is an answer, not followed.
      const response = await fetch(`${base}${path}`, { headers, redirect: "manual" });
      const body = await response.arrayBuffer();
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (response.status !== 200 && !also.includes(response.status))
        throw new Error(`GET ${path} answered ${response.status}: ${Buffer.from(body).toString().slice(0, 300)}`);
      return ms;
    },
    /**
     * A page as a browser gets its data: milliseconds until the HTML has arrived (`pageMs`) and until
     * the fetches it preloads (`<link rel="preload" as="fetch">`, the run page's timeline) have too
     * (`withDataMs`), those started once the HTML is whole (a browser starts them as the head
     * arrives, so this is an upper bound).
     */
    async timePage(path: string): Promise<{ pageMs: number; withDataMs: number; preloads: number }> {
      const started = process.hrtime.bigint();
      const response = await fetch(`${base}${path}`, { headers, redirect: "manual" });
      const html = await response.text();
      const pageMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${html.slice(0, 300)}`);
      const preloads = preloadedFetches(html);
      await Promise.all(
        preloads.map(async (href) => {
          const data = await fetch(new URL(href, `${base}${path}`), { headers });
          const text = await data.text();
          if (data.status !== 200) throw new Error(`GET ${href} (preloaded by ${path}) answered ${data.status}: ${text.slice(0, 300)}`);
        }),
      );
      return { pageMs, withDataMs: Number(process.hrtime.bigint() - started) / 1e6, preloads: preloads.length };
    },
    async json<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; body: T }> {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as T };
    },
  };
}

/**
 * The addresses of the fetches a page preloads: `<link rel="preload" as="fetch" href>` in its HTML,
 * and React's preload hints in its embedded RSC payload (`:HL["<href>","fetch",…]` rows of the
 * `self.__next_f.push([1,"…"])` scripts), which the browser acts on as it reads them.
 */
export function preloadedFetches(html: string): string[] {
  const hrefs = new Set<string>();
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    if (!/\brel="preload"/.test(tag) || !/\bas="fetch"/.test(tag)) continue;
    const href = /\bhref="([^"]*)"/.exec(tag)?.[1];
    if (href !== undefined)
      hrefs.add(
        href
          .replace(/&amp;/g, "&")
          .replace(/&quot;/g, '"')
          .replace(/&#x27;|&#39;/g, "'"),
      );
  }
  for (const [, args] of html.matchAll(/self\.__next_f\.push\((\[.*?\])\)<\/script>/gs)) {
    const [kind, flight] = JSON.parse(args) as [number, unknown];
    if (kind !== 1 || typeof flight !== "string") continue;
    for (const [, hint] of flight.matchAll(/^:HL(\[.*\])$/gm)) {
      const [href, as] = JSON.parse(hint) as [string, string];
      if (as === "fetch") hrefs.add(href);
    }
  }
  return [...hrefs];
}

export type ApiClient = ReturnType<typeof apiClient>;

export interface Latency {
  /** The first request (not counted in p50/p95). */
  firstMs: number;
  p50: number;
  p95: number;
  count: number;
}

/** One untimed-for-percentiles first request, then `count` sequential ones: p50 and p95 of those. */
export async function sampleLatency(
  client: ApiClient,
  path: string,
  count: number,
  onRequest: (i: number) => void = () => {},
): Promise<Latency> {
  const firstMs = await client.timeGet(path);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    onRequest(i);
    times.push(await client.timeGet(path));
  }
  return { firstMs, p50: percentile(times, 50), p95: percentile(times, 95), count };
}

/** p50, p95 and the worst of some timings (ms), and how many there were. */
export interface Spread {
  p50: number;
  p95: number;
  max: number;
  count: number;
}

export function latencyOf(times: readonly number[]): Spread {
  return { p50: percentile(times, 50), p95: percentile(times, 95), max: Math.max(...times), count: times.length };
}

/** One timed request: when it was sent (Date.now()) and how long it took. */
export interface Sample {
  at: number;
  ms: number;
}

/**
 * GETs of `path`, one after another, from now until `stop()` (which returns them all): a reader
 * polling the server while something else runs, e.g. /api/v1/health during a replay.
 */
export function sampleUntilStopped(client: ApiClient, path: string): { stop(): Promise<Sample[]> } {
  const samples: Sample[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const at = Date.now();
      samples.push({ at, ms: await client.timeGet(path) });
    }
  })();
  loop.catch(() => {}); // a failed request ends the loop; stop() throws it
  return {
    stop: async () => {
      running = false;
      await loop;
      return samples;
    },
  };
}

/**
 * `readers` concurrent readers, each GETting `path` `rounds` times one after another (after one
 * untimed request of the path, so the route's code is loaded): every request's time.
 */
/** `readers` signed-in readers each loading a page `rounds` times at once (after one untimed load): each load's HTML and its preloaded data. */
export async function concurrentPageLoads(
  client: ReturnType<typeof pageClient>,
  path: string,
  readers: number,
  rounds: number,
): Promise<{ pageMs: number[]; withDataMs: number[]; preloads: number }> {
  const { preloads } = await client.timePage(path);
  const pageMs: number[] = [];
  const withDataMs: number[] = [];
  await Promise.all(
    Array.from({ length: readers }, async () => {
      for (let r = 0; r < rounds; r++) {
        const load = await client.timePage(path);
        pageMs.push(load.pageMs);
        withDataMs.push(load.withDataMs);
      }
    }),
  );
  return { pageMs, withDataMs, preloads };
}

export async function concurrentReads(client: ApiClient, path: string, readers: number, rounds: number): Promise<number[]> {
  await client.timeGet(path);
  const times: number[] = [];
  await Promise.all(
    Array.from({ length: readers }, async () => {
      for (let r = 0; r < rounds; r++) times.push(await client.timeGet(path));
    }),
  );
  return times;
}
