/**
 * The scale bench's data-set pass: for each size, a scratch database is filled with generated runs
 * through `ingestBatch` (optionally next to raw INSERTs of the same rows), settled, and served by
 * the production server; the read paths are timed over HTTP, and at the large size a what-if
 * replay runs while another project's runs list is timed.
 */
import { ZReplayJob, type TCopy, type TReplayJob } from "@/lib/contracts";
import { apiRunPath } from "@/lib/queries/paths";
import { evaluateAlerts, type DeliverySender } from "@/lib/server/alerts/evaluate";
import { authenticate, createKey, type Caller } from "@/lib/server/auth/keys";
import { createCopyVersion } from "@/lib/server/versions/versions";
import type { Database } from "@/lib/server/db";
import { percentile, type BenchContext } from "./common";
import { countLabel } from "./scale-options";
import {
  ALERT_AFTER,
  ALERT_NOW,
  AUDIT_DAY,
  AUDIT_SCALE_KEY,
  createAlertRules,
  datasetRun,
  FILTER_AGENT,
  loadAuditLog,
  loadDataset,
  loadReviews,
  REVIEW_WINDOW,
  SCALE_EXPERIMENT,
  type LoadResult,
} from "./scale-data";
import { createScratchDatabase, ingestRuns, settle, type DatabaseKind } from "./scale-db";
import { rawInserter } from "./scale-raw";
import {
  apiClient,
  latencyOf,
  sampleLatency,
  sampleUntilStopped,
  withServer,
  type ApiClient,
  type Latency,
  type Sample,
  type Spread,
} from "./scale-server";

/** The run whose summary and timeline are timed: run 0, the same run at every size. */
const SAMPLE_RUN = "scale-0000";
/** The run a comparison reads beside SAMPLE_RUN. */
const OTHER_RUN = "scale-0001";

/** The alerts list's newest page (of 50). */
export const ALERT_LIST_PATH = "/api/v1/alerts";

/** The days of the effectiveness reads: the generated runs' (scale-data.ts runStart). */
const EFFECT_WINDOW = "tz=UTC&from=2026-10-25&to=2026-11-07";

/** The read paths, with the targets where it sets one (p95 at the large size, large/small). */
export const READ_PATHS: readonly { label: string; path: string; targeted: boolean }[] = [
  { label: "GET /api/v1/reviewer/funnel", path: "/api/v1/reviewer/funnel", targeted: true },
  { label: "GET /api/v1/reviewer/candidates", path: "/api/v1/reviewer/candidates", targeted: true },
  { label: "GET /api/v1/reviewer/candidates?violations=1", path: "/api/v1/reviewer/candidates?violations=1", targeted: true },
  // The audit's other orders (reviewer_rows_by_violations_idx; the runs' started_at index forwards).
  { label: "GET /api/v1/reviewer/candidates?sort=violations", path: "/api/v1/reviewer/candidates?sort=violations", targeted: false },
  { label: "GET /api/v1/reviewer/candidates?sort=oldest", path: "/api/v1/reviewer/candidates?sort=oldest", targeted: false },
  { label: "GET /api/v1/runs", path: "/api/v1/runs", targeted: true },
  { label: "GET /api/v1/runs?sort=-turns", path: "/api/v1/runs?sort=-turns", targeted: true },
  { label: `GET /api/v1/runs?sort=-turns&agent=${FILTER_AGENT}`, path: `/api/v1/runs?sort=-turns&agent=${FILTER_AGENT}`, targeted: true },
  // Contract §10's reads, over the window holding every generated run (spread over its 14 days).
  { label: "GET /api/v1/effectiveness (the data's 14 days)", path: `/api/v1/effectiveness?${EFFECT_WINDOW}`, targeted: true },
  {
    label: `GET /api/v1/effectiveness?agent=${FILTER_AGENT}`,
    path: `/api/v1/effectiveness?${EFFECT_WINDOW}&agent=${FILTER_AGENT}`,
    targeted: true,
  },
  // The experiment every other run is in (scale-data.ts SCALE_EXPERIMENT): one arm's effectiveness, and its results.
  {
    label: "GET /api/v1/effectiveness?experiment=…&arm=A",
    path: `/api/v1/effectiveness?${EFFECT_WINDOW}&experiment=${SCALE_EXPERIMENT.id}&arm=A`,
    targeted: true,
  },
  { label: "GET /api/v1/experiments/:id/results", path: `/api/v1/experiments/${SCALE_EXPERIMENT.id}/results`, targeted: true },
  // The audit log (scale-data.ts loadAuditLog: an entry per 100 events): its newest page, one action, one key's and a day's.
  { label: "GET /api/v1/audit", path: "/api/v1/audit", targeted: true },
  { label: "GET /api/v1/audit?action=copyVersion.makeDefault", path: "/api/v1/audit?action=copyVersion.makeDefault", targeted: true },
  { label: "GET /api/v1/audit?actorKeyId=…", path: `/api/v1/audit?actorKeyId=${AUDIT_SCALE_KEY}`, targeted: true },
  { label: "GET /api/v1/audit (one day)", path: `/api/v1/audit?${AUDIT_DAY}`, targeted: true },
  // The review queue (scale-data.ts loadReviews: a verdict on every third candidate of the queue): its first open page,
  // its progress, the verdicts per week over the data's 14 days, one run's reviews.
  {
    label: "GET /api/v1/reviewer/candidates?queue=1&reviewed=no",
    path: "/api/v1/reviewer/candidates?queue=1&reviewed=no&limit=50",
    targeted: true,
  },
  { label: "GET /api/v1/reviewer/progress?queue=1", path: "/api/v1/reviewer/progress?queue=1", targeted: true },
  { label: "GET /api/v1/trends/reviews (the data's 14 days)", path: `/api/v1/trends/reviews?${REVIEW_WINDOW}`, targeted: true },
  { label: `run reviews (${SAMPLE_RUN})`, path: apiRunPath(SAMPLE_RUN, "/reviews"), targeted: false },
  // The alerts (scale-data.ts ALERT_RULES, evaluated at ALERT_NOW and cleared at ALERT_AFTER in turn: the same alerts at
  // every size): their newest page, with its deliveries. Every rule's evaluation is timed beside it (measureAlerts).
  { label: "GET /api/v1/alerts", path: ALERT_LIST_PATH, targeted: true },
  { label: `run summary (${SAMPLE_RUN})`, path: apiRunPath(SAMPLE_RUN), targeted: false },
  { label: `run follow-up and fatigue (${SAMPLE_RUN})`, path: apiRunPath(SAMPLE_RUN, "/effectiveness"), targeted: false },
  { label: `run timeline (${SAMPLE_RUN})`, path: apiRunPath(SAMPLE_RUN, "/timeline"), targeted: false },
  // Run comparison (docs/compare.md): two runs' first difference and its decisions, then the last one stepping back.
  { label: `GET /api/v1/compare (${SAMPLE_RUN} vs ${OTHER_RUN})`, path: `/api/v1/compare?a=${SAMPLE_RUN}&b=${OTHER_RUN}`, targeted: true },
  {
    label: "GET /api/v1/compare?direction=previous",
    path: `/api/v1/compare?a=${SAMPLE_RUN}&b=${OTHER_RUN}&direction=previous`,
    targeted: true,
  },
  // Search inside a run (docs/search.md): a text on most turns (capped at 500 marks) and a finding code's prefix.
  {
    label: `GET /api/v1/runs/:runId/search?q=requests (${SAMPLE_RUN})`,
    path: apiRunPath(SAMPLE_RUN, "/search", { q: "requests" }),
    targeted: true,
  },
  {
    label: `GET /api/v1/runs/:runId/search?q=missing&kind=finding (${SAMPLE_RUN})`,
    path: apiRunPath(SAMPLE_RUN, "/search", { q: "missing", kind: "finding" }),
    targeted: true,
  },
];

export interface DatasetParts {
  reads: boolean;
  ingest: boolean;
  replay: boolean;
}

export interface ReplayIsolation {
  /** The other project's GET /api/v1/runs without a replay, and while one runs (every request: no untimed first one). */
  quiet: Latency;
  during: Latency & { max: number };
  /** GET /api/v1/health, polled alongside, during the replay. */
  health: Spread;
  replayTurns: number;
  replayRuns: number;
  replaySeconds: number;
  /** How long POST /api/v1/replay took to answer (202). */
  postMs: number;
  status: TReplayJob["status"];
}

/** Every alert rule's evaluation, timed in this process (as the queue's job runs it), and what it made. */
export interface AlertMeasurement {
  /** The rules of every project, each evaluated once per timed evaluation. */
  rules: number;
  projects: number;
  /** The main project's rules that fired at ALERT_NOW, and the alerts it has when listed. */
  fired: number;
  alerts: number;
  evaluation: Latency;
}

export interface DatasetMeasurement {
  size: number;
  load: LoadResult;
  rawClients?: number;
  settleSeconds: number;
  reads?: Latency[];
  alerts?: AlertMeasurement;
  replay?: ReplayIsolation;
}

const SHORT_COPY: TCopy = { context: { "*": "Context {percent}% of {capacityBytes} B" } };

/** One size: load, settle, serve, measure what `parts` asks for (the replay only when `withReplay`). */
export async function measureDataset(
  ctx: BenchContext,
  kind: DatabaseKind,
  size: number,
  parts: DatasetParts,
  options: { requests: number; withReplay: boolean },
): Promise<DatasetMeasurement> {
  const database = await createScratchDatabase();
  try {
    const db = await database.open();
    let keys: { main: string; other: string };
    let copyVersionId: string;
    const measurement: Partial<DatasetMeasurement> = { size };
    try {
      const main = await createKey(db, "scale", "bench scale");
      const other = await createKey(db, "scale-other", "bench scale (replay isolation)");
      keys = { main: main.secret, other: other.secret };
      const caller = await authenticate(db, `Bearer ${main.secret}`);
      await createScaleExperiment(db, caller.projectId);
      const raw = parts.ingest ? await rawInserter(db, database, caller.projectId) : undefined;
      try {
        measurement.load = await loadDataset(db, caller.projectId, size, { raw });
        measurement.rawClients = raw?.clients;
        await loadAuditLog(db, caller.projectId, Math.ceil(size / 100));
      } finally {
        await raw?.close();
      }
      if (parts.replay && options.withReplay) {
        // The other project: a few shorter runs of its own, whose list is read during the replay.
        const otherCaller = await authenticate(db, `Bearer ${other.secret}`);
        ctx.progress("loading the other project's runs ...");
        await ingestRuns(
          db,
          otherCaller.projectId,
          [0, 1, 2, 3, 4].map((i) => datasetRun(i, "other")),
        );
        copyVersionId = (await createCopyVersion(db, caller, { name: "bench scale replay", copy: SHORT_COPY })).id;
      }
      measurement.settleSeconds = (await settle(db)).seconds;
      // The review queue's verdicts, on the rebuilt runs' candidates.
      ctx.progress(`${(await loadReviews(db, caller.projectId)).toLocaleString("en-US")} reviews loaded`);
      // The alert rules, the same in both projects at every size: every rule's evaluation, and the alerts listed.
      if (parts.reads) {
        const callers = [caller, await authenticate(db, `Bearer ${other.secret}`)];
        ctx.progress(`alerts at ${countLabel(size)} events: every rule evaluated ${options.requests} times ...`);
        measurement.alerts = await measureAlerts(db, callers, options.requests);
      }
    } finally {
      await db.close();
    }
    if (!parts.reads && !(parts.replay && options.withReplay)) return measurement as DatasetMeasurement;

    ctx.progress(`starting the production server on the ${kind} database ...`);
    await withServer(database, async (base) => {
      const client = apiClient(base, keys.main);
      if (parts.reads) {
        measurement.reads = [];
        for (const { label, path } of READ_PATHS) {
          ctx.progress(`${label} at ${countLabel(size)} events: ${options.requests} requests ...`);
          measurement.reads.push(await sampleLatency(client, path, options.requests));
        }
      }
      if (parts.replay && options.withReplay) {
        measurement.replay = await replayIsolation(ctx, client, apiClient(base, keys.other), copyVersionId!, options.requests);
      }
    });
    return measurement as DatasetMeasurement;
  } finally {
    await database.remove();
  }
}

/** Evaluations that clear (ALERT_AFTER) and fire (ALERT_NOW) the rules again after the timed ones: the alerts listed. */
const ALERT_CYCLES = 9;

/**
 * The projects' alert rules (scale-data.ts ALERT_RULES) made, then every rule of every project evaluated
 * at ALERT_NOW (evaluateAlerts, sending no delivery jobs): once untimed (the rules fire, as the first
 * request of a read is untimed), then `count` times, each rule's condition still holding, timed. Then
 * ALERT_CYCLES evaluations after the data and at ALERT_NOW in turn, each pair clearing the windowed
 * rules and firing them again, so the main project has the same alerts at every size.
 */
async function measureAlerts(db: Database, callers: readonly Caller[], count: number): Promise<AlertMeasurement> {
  let rules = 0;
  for (const caller of callers) rules += await createAlertRules(db, caller);
  const send: DeliverySender = async () => {};
  const evaluate = async (now: Date) => {
    const report = await evaluateAlerts(db, send, now);
    if (report.failed > 0 || report.evaluated !== rules)
      throw new Error(`evaluateAlerts evaluated ${report.evaluated} of ${rules} rules, ${report.failed} failed (logged above)`);
    return report;
  };
  const timed = async () => {
    const started = process.hrtime.bigint();
    await evaluate(ALERT_NOW);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  const main = callers[0].projectId;
  const firstMs = await timed();
  const fired = await db.prisma.alert.count({ where: { projectId: main } });
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push(await timed());
  for (let i = 0; i < ALERT_CYCLES; i++) {
    await evaluate(ALERT_AFTER);
    await evaluate(ALERT_NOW);
  }
  return {
    rules,
    projects: callers.length,
    fired,
    alerts: await db.prisma.alert.count({ where: { projectId: main } }),
    evaluation: { firstMs, p50: percentile(times, 50), p95: percentile(times, 95), count },
  };
}

/**
 * The other project's runs list, timed without a replay, then again and again while a what-if
 * replay of every run of the main project (POST /api/v1/replay) runs, until it ends.
 */
async function replayIsolation(
  ctx: BenchContext,
  main: ApiClient,
  other: ApiClient,
  copyVersionId: string,
  requests: number,
): Promise<ReplayIsolation> {
  ctx.progress("replay isolation: the other project's runs list, no replay running ...");
  const quiet = await sampleLatency(other, "/api/v1/runs", requests);
  // The reads start with the POST, not after its answer: on a server busy with the replay the
  // answer itself may wait. The job's status is polled on the side, so a read stuck behind the
  // replay is timed as such. A read counts when it overlapped the job, from its creation to its
  // end (the server's clock is this machine's).
  const posted = Date.now();
  let postMs = NaN;
  let job: TReplayJob | undefined;
  const poller = (async () => {
    const answer = await main.json<unknown>("POST", "/api/v1/replay", { copyVersionId, maxRuns: 5000 });
    postMs = Date.now() - posted;
    if (answer.status !== 202)
      throw new Error(`POST /api/v1/replay answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    job = ZReplayJob.parse(answer.body);
    while (job.status === "running") {
      await new Promise((resolve) => setTimeout(resolve, 200));
      job = ZReplayJob.parse((await main.json<unknown>("GET", `/api/v1/replay/${job.id}`)).body);
      ctx.progress(`replay isolation: replay at ${job.progress.doneTurns}/${job.progress.totalTurns} turns`);
    }
  })();
  const reads = sampleUntilStopped(other, "/api/v1/runs");
  const health = sampleUntilStopped(other, "/api/v1/health");
  await poller.finally(() => Promise.all([reads.stop(), health.stop()]));
  const begin = Date.parse(job!.createdAt);
  const end = job!.finishedAt ? Date.parse(job!.finishedAt) : Date.now();
  const during = (samples: Sample[]) => samples.filter((r) => r.at < end && r.at + r.ms > begin).map((r) => r.ms);
  const times = during(await reads.stop());
  const healthTimes = during(await health.stop());
  if (times.length === 0 || healthTimes.length === 0) throw new Error("no read overlapped the replay; give it more runs");
  const replaySeconds = (end - begin) / 1000;
  return {
    quiet,
    during: { firstMs: times[0], ...latencyOf(times) },
    health: latencyOf(healthTimes),
    replayTurns: job!.progress.totalTurns,
    replayRuns: job!.progress.totalRuns,
    replaySeconds,
    postMs,
    status: job!.status,
  };
}

/** The data set's experiment, running, before its runs arrive (their rebuilds count them in it). */
async function createScaleExperiment(db: Database, projectId: string): Promise<void> {
  await db.prisma.experiment.create({
    data: {
      id: SCALE_EXPERIMENT.id,
      projectId,
      name: "bench scale",
      key: "requests",
      status: "running",
      createdBy: "bench",
      startedAt: new Date(),
      arms: {
        create: SCALE_EXPERIMENT.arms.map((arm, position) => ({ position, name: arm.name, weight: arm.weight, plannedRuns: 1_000 })),
      },
    },
  });
}
