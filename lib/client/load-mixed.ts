/**
 * The mixed profile of `npm run test:load` (issue 22): at once, for a fixed time,
 * - senders posting overlapping ingest batches (runLoad of lib/client/load.ts, as the default profile);
 * - readers cycling through the pages and API reads a user makes: the runs list with its sorts and
 *   filters, facets, trends, the runs / run / reviewer / trends pages (HTML, with a session cookie),
 *   a run's summary, events, timeline (whole and zoomed), decisions download, comments, the
 *   Reviewer's candidates, funnel and exports — some of them of a second project, which nothing
 *   else loads (cross-project isolation);
 * - comment writers posting comments as the browser does (session cookie, same-origin `Origin`);
 * - replayers starting what-if replays (`POST /api/v1/replay`) and polling them to their end.
 * Every request becomes a Sample (lib/client/load-mixed-report.ts holds the report and verdict).
 */
import { RUN_SORTS } from "@/lib/contracts";
import { generateEtfRun, type TRawEvent } from "@/lib/demo/etf-run";
import { assertLoopback, runLoad, statusOf, type LoadReport } from "./load";
import type { MixedClass, Sample } from "./load-mixed-report";

/** One project the load reads: its key, and its browser session token when the pages are read too. */
export interface MixedProject {
  key: string;
  session?: string;
}

export interface MixedOptions {
  url: string;
  /** The loaded project: ingest, reads, comments, replays. */
  main: MixedProject;
  /** A second project, only read (its readers measure whether the load on `main` makes them wait). */
  other?: MixedProject;
  durationMs: number;
  senders: number;
  ratePerSender: number;
  turnsPerRun?: number;
  readers: number;
  /** How many of the readers read `other` (when given). */
  otherReaders: number;
  commenters: number;
  replayers: number;
  /** Each reader's and comment writer's pause between two requests (ms): a user's think time. */
  pauseMs?: number;
  requestTimeoutMs?: number;
  tag?: string;
  onSample?: (sample: Sample) => void;
  onProgress?: (progress: { elapsedMs: number; requests: number; statuses: Record<string, number> }) => void;
}

/** What a prepared project holds for the readers: the ids of its seeded runs (each SEED_TURNS turns). */
export interface SeededProject extends MixedProject {
  runIds: string[];
  policyVersionIds: string[];
}

export const SEED_RUNS = 6;
export const SEED_TURNS = 40;

export interface MixedResult {
  samples: Sample[];
  durationMs: number;
  ingest: LoadReport;
  replays: { started: number; finished: number };
  notes: string[];
}

function randomTag(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/**
 * Seeds a project through the API before the load: SEED_RUNS runs of SEED_TURNS turns started in
 * the last hours (so trends shows them), waits (up to `settleMs`) until they are rebuilt, and
 * saves `versions` policy versions for the replays.
 */
export async function seedProject(
  url: string,
  project: MixedProject,
  name: string,
  options: { versions: number; tag?: string; settleMs?: number },
): Promise<SeededProject> {
  assertLoopback(url);
  const base = url.replace(/\/$/, "");
  const tag = options.tag ?? randomTag();
  const auth = { authorization: `Bearer ${project.key}` };
  const runIds: string[] = [];
  for (let r = 0; r < SEED_RUNS; r++) {
    const runId = `mixed-${tag}-${name}-${r}`;
    const startTime = new Date(Date.now() - (r + 1) * 3_600_000).toISOString();
    const events: TRawEvent[] = generateEtfRun({
      runId,
      seed: 100 + r,
      turns: SEED_TURNS,
      startTime,
      agent: `agent-${name}-${r % 2}`,
      anomalies: r % 2 === 0,
    }).events.map((event) => ({ ...event, id: `${runId}:${event.id}` })); // event ids are unique per project
    for (let i = 0; i < events.length; i += 500) {
      const response = await fetch(`${base}/api/v1/ingest`, {
        method: "POST",
        headers: { "content-type": "application/json", ...auth },
        body: JSON.stringify({ batch: events.slice(i, i + 500) }),
      });
      const text = await response.text();
      if (response.status !== 207) throw new Error(`seeding ${runId} answered ${response.status}: ${text.slice(0, 200)}`);
      const refused = (JSON.parse(text) as { results: { status: string }[] }).results.filter((result) => result.status === "error");
      if (refused.length > 0)
        throw new Error(`seeding ${runId}: ${refused.length} events refused: ${JSON.stringify(refused[0]).slice(0, 300)}`);
    }
    runIds.push(runId);
  }
  const policyVersionIds: string[] = [];
  for (let v = 0; v < options.versions; v++) {
    const response = await fetch(`${base}/api/v1/policy-versions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...auth },
      body: JSON.stringify({ name: `load ${tag} ${v}`, policy: { review: { everyTurns: 3 + v } } }),
    });
    if (response.status !== 201 && response.status !== 200)
      throw new Error(`saving a policy version answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
    policyVersionIds.push(((await response.json()) as { id: string }).id);
  }
  // The readers read rebuilt runs (a run not rebuilt yet has no decisions to download).
  const deadline = Date.now() + (options.settleMs ?? 120_000);
  while (Date.now() < deadline) {
    const response = await fetch(`${base}/api/v1/runs?limit=50`, { headers: auth });
    const list = response.ok
      ? ((await response.json()) as { runs: { runId: string; rebuildPending: boolean; staleEvents: number }[] })
      : null;
    const settled = list?.runs.filter((run) => runIds.includes(run.runId) && !run.rebuildPending && run.staleEvents === 0).length ?? 0;
    if (settled === runIds.length) break;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return { ...project, runIds, policyVersionIds };
}

/** One read a reader makes: its name, path, and whether it is a page (needs the session cookie). */
export interface Read {
  endpoint: string;
  path: string;
  page: boolean;
}

/**
 * The reads a reader cycles through at step `step` of project with `runIds`: the same mix a user
 * makes, varying the sort, filter and run with the step. Pages are left out without a session.
 */
export function readsAt(step: number, runIds: readonly string[], withPages: boolean): Read[] {
  const runId = encodeURIComponent(runIds[step % runIds.length]);
  const sort = RUN_SORTS[step % RUN_SORTS.length];
  const reviewerSort = (["newest", "oldest", "violations"] as const)[step % 3];
  const zoom = 1 + (step % 30);
  const reads: Read[] = [
    { endpoint: "runs-list", path: `/api/v1/runs?sort=${sort}&limit=50`, page: false },
    { endpoint: "runs-list-filtered", path: `/api/v1/runs?status=completed&hasViolations=1&q=mixed&sort=${sort}`, page: false },
    { endpoint: "facets", path: "/api/v1/facets", page: false },
    { endpoint: "trends", path: `/api/v1/trends?tz=${step % 2 === 0 ? "UTC" : "Europe%2FBerlin"}`, page: false },
    { endpoint: "run-summary", path: `/api/v1/runs/${runId}`, page: false },
    { endpoint: "timeline", path: `/api/v1/runs/${runId}/timeline`, page: false },
    { endpoint: "timeline-zoom", path: `/api/v1/runs/${runId}/timeline?from=${zoom}&to=${zoom + 8}&maxPoints=200`, page: false },
    { endpoint: "events", path: `/api/v1/runs/${runId}/events?limit=500`, page: false },
    { endpoint: "decisions", path: `/api/v1/runs/${runId}/decisions`, page: false },
    { endpoint: "comments", path: `/api/v1/runs/${runId}/comments?turn=run`, page: false },
    { endpoint: "comment-turns", path: `/api/v1/runs/${runId}/comments/turns`, page: false },
    { endpoint: "reviewer-candidates", path: `/api/v1/reviewer/candidates?sort=${reviewerSort}`, page: false },
    { endpoint: "reviewer-funnel", path: "/api/v1/reviewer/funnel", page: false },
    { endpoint: "runs-export", path: "/api/v1/runs/export?format=csv", page: false },
    { endpoint: "reviewer-export", path: "/api/v1/reviewer/candidates/export?format=json", page: false },
    { endpoint: "runs-page", path: `/runs?sort=${sort}`, page: true },
    { endpoint: "run-page", path: `/runs/${runId}`, page: true },
    { endpoint: "run-page-turn", path: `/runs/${runId}?turn=${zoom}`, page: true },
    { endpoint: "reviewer-page", path: "/reviewer", page: true },
    { endpoint: "trends-page", path: "/trends", page: true },
  ];
  return withPages ? reads : reads.filter((read) => !read.page);
}

/**
 * Makes every read of `project` once, one after the other, before the load: a server loads the code
 * of a route on its first request (hundreds of ms on a slow machine, once per process), which is
 * the start-up's stall, not the load's. Returns the reads that did not answer 2xx (by endpoint).
 */
export async function warmUp(url: string, project: SeededProject): Promise<string[]> {
  const base = url.replace(/\/$/, "");
  const failed: string[] = [];
  for (const read of readsAt(0, project.runIds, project.session !== undefined)) {
    const headers: Record<string, string> =
      read.page && project.session ? { cookie: `cuescope_session=${project.session}` } : { authorization: `Bearer ${project.key}` };
    const response = await fetch(`${base}${read.path}`, { headers, redirect: "manual" }).catch(() => null);
    await response?.arrayBuffer().catch(() => undefined);
    if (!response || !response.ok) failed.push(`${read.endpoint} ${response?.status ?? "network"}`);
  }
  return failed;
}

export async function runMixedLoad(options: MixedOptions & { main: SeededProject; other?: SeededProject }): Promise<MixedResult> {
  assertLoopback(options.url);
  const base = options.url.replace(/\/$/, "");
  const pause = options.pauseMs ?? 1_000;
  const timeout = options.requestTimeoutMs ?? 60_000;
  const samples: Sample[] = [];
  const statuses: Record<string, number> = {};
  const notes: string[] = [];
  /** The first answer of each endpoint and status other than 2xx/3xx (what it said), for the report. */
  const firstRefusals = new Map<string, string>();
  const record = (sample: Sample) => {
    samples.push(sample);
    statuses[sample.status] = (statuses[sample.status] ?? 0) + 1;
    options.onSample?.(sample);
  };
  const started = Date.now();
  const deadline = started + options.durationMs;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(ms, deadline - Date.now()))));

  /** One request, timed to its last byte. */
  const request = async (
    cls: MixedClass,
    endpoint: string,
    path: string,
    init: RequestInit = {},
  ): Promise<{ status: string; body: string | null }> => {
    const t0 = performance.now();
    let status = "network";
    let body: string | null = null;
    try {
      const response = await fetch(`${base}${path}`, { redirect: "manual", ...init, signal: AbortSignal.timeout(timeout) });
      status = statusOf(response);
      body = await response.text();
    } catch {
      status = "network";
    }
    const ms = performance.now() - t0;
    record({ cls, endpoint, status, ms });
    if (!/^[23]/.test(status)) {
      const first = `${cls}/${endpoint} ${status}`;
      if (!firstRefusals.has(first))
        firstRefusals.set(first, `${init.method ?? "GET"} ${path} → ` + (body ?? "").replace(/\s+/g, " ").slice(0, 240));
    }
    return { status, body };
  };

  const headersFor = (project: MixedProject, page: boolean, write: boolean): Record<string, string> => {
    if (project.session && (page || write))
      return { cookie: `cuescope_session=${project.session}`, ...(write ? { origin: new URL(base).origin } : {}) };
    return { authorization: `Bearer ${project.key}` };
  };

  if (!options.main.session) notes.push("no session for the loaded project: its pages were not read, comments written with the key");
  if (options.other && !options.other.session) notes.push("no session for the other project: its pages were not read");
  if (!options.other && options.otherReaders > 0) notes.push("no second project: every reader read the loaded project");

  const reader = async (r: number) => {
    const project = options.other && r < options.otherReaders ? options.other : options.main;
    const cls: MixedClass = project === options.main ? "read" : "read-other";
    // Readers start spread over the first pause, each at its own place in the cycle.
    await sleep((pause * r) / Math.max(1, options.readers));
    for (let step = r; Date.now() < deadline; step++) {
      const reads = readsAt(Math.floor(step / 7), project.runIds, project.session !== undefined);
      const read = reads[step % reads.length];
      await request(cls, read.endpoint, read.path, { headers: headersFor(project, read.page, false) });
      await sleep(pause);
    }
  };

  const commenter = async (c: number) => {
    const project = options.main;
    await sleep((pause * c) / Math.max(1, options.commenters));
    for (let n = 0; Date.now() < deadline; n++) {
      const runId = project.runIds[(c + n) % project.runIds.length];
      const turn = n % 3 === 0 ? null : 1 + ((c * 7 + n) % (SEED_TURNS - 1));
      await request("comment", "comment-post", `/api/v1/runs/${encodeURIComponent(runId)}/comments`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headersFor(project, false, true) },
        body: JSON.stringify({ body: `Load comment ${c}.${n}: **look** at \`turn ${turn ?? "run"}\`\n\n- one\n- two`, turn }),
      });
      await sleep(pause);
    }
  };

  const replays = { started: 0, finished: 0 };
  const replayer = async (p: number) => {
    const project = options.main;
    if (project.policyVersionIds.length === 0) return;
    for (let n = p; Date.now() < deadline; n++) {
      const body = {
        policyVersionId: project.policyVersionIds[n % project.policyVersionIds.length],
        maxRuns: [5, 20, 50][n % 3],
        filters: n % 2 === 0 ? {} : { status: "completed" },
      };
      const answer = await request("replay", "replay-start", "/api/v1/replay", {
        method: "POST",
        headers: { "content-type": "application/json", ...headersFor(project, false, false) },
        body: JSON.stringify(body),
      });
      if (answer.status !== "202" && answer.status !== "200") {
        await sleep(pause);
        continue;
      }
      replays.started++;
      let job = JSON.parse(answer.body ?? "{}") as { id: string; status: string };
      while (job.status === "running" && Date.now() < deadline) {
        await sleep(pause);
        const poll = await request("replay", "replay-poll", `/api/v1/replay/${encodeURIComponent(job.id)}`, {
          headers: headersFor(project, false, false),
        });
        if (poll.status !== "200") break;
        job = JSON.parse(poll.body ?? "{}") as typeof job;
      }
      if (job.status !== "running") replays.finished++;
    }
  };

  const progress = setInterval(
    () => options.onProgress?.({ elapsedMs: Date.now() - started, requests: samples.length, statuses: { ...statuses } }),
    1000,
  );
  try {
    const [ingest] = await Promise.all([
      runLoad({
        url: options.url,
        key: options.main.key,
        durationMs: options.durationMs,
        senders: options.senders,
        ratePerSender: options.ratePerSender,
        turnsPerRun: options.turnsPerRun,
        tag: options.tag,
        requestTimeoutMs: timeout,
        onRequest: (status, ms) => record({ cls: "ingest", endpoint: "ingest", status, ms }),
      }),
      ...Array.from({ length: options.readers }, (_, r) => reader(r)),
      ...Array.from({ length: options.commenters }, (_, c) => commenter(c)),
      ...Array.from({ length: options.replayers }, (_, p) => replayer(p)),
    ]);
    for (const [what, said] of firstRefusals) notes.push(`first ${what}: ${said}`);
    return { samples, durationMs: Date.now() - started, ingest, replays, notes };
  } finally {
    clearInterval(progress);
  }
}
