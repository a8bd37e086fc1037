/**
 * A/B of the scale bench's replay isolation on one PGlite data set, loaded once:
 *   tsx scripts/bench/replay-ab.ts prepare <dir> [events]
 *   tsx scripts/bench/replay-ab.ts run <dir> <label=buildDir>... [--rounds N]
 * `run` alternates the builds (each a copy of a `.next`, swapped in as `.next` for its turn) over a
 * fresh copy of the prepared database each time, and prints one JSON line per replay: its pace,
 * the server's CPU seconds meanwhile (main thread, busiest other thread, all), the other project's
 * runs list during it, the load average and a hash of the result (same inputs: same hash).
 * AB_NO_READS=1 times the replay alone; AB_WARM=1 times it on a server that ran one replay before. Build dirs must be on this file system (they are renamed);
 * `.next` must not exist while it runs. CUESCOPE_BENCH_PORT_OFFSET as for the other benches.
 */
import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { ZReplayJob, type TCopy, type TReplayJob } from "@/lib/contracts";
import { authenticate, createKey } from "@/lib/server/auth/keys";
import { openDatabase } from "@/lib/server/db";
import { createCopyVersion } from "@/lib/server/versions/versions";
import { datasetRun, loadDataset } from "./scale-data";
import { ingestRuns, settle, type ScratchDatabase } from "./scale-db";
import { apiClient, latencyOf, sampleLatency, sampleUntilStopped, startScaleServer, type Sample } from "./scale-server";

/** Starts a replay and polls it until it has ended. */
async function replayUntilDone(client: ReturnType<typeof apiClient>, body: unknown): Promise<TReplayJob> {
  const answer = await client.json<unknown>("POST", "/api/v1/replay", body);
  if (answer.status !== 202) throw new Error(`POST answered ${answer.status}`);
  let job = ZReplayJob.parse(answer.body);
  while (job.status === "running") {
    await new Promise((resolve) => setTimeout(resolve, 200));
    job = ZReplayJob.parse((await client.json<unknown>("GET", `/api/v1/replay/${job.id}`)).body);
  }
  return job;
}

/** CPU seconds of each of the process's threads (tid → [name, seconds]). */
function threadCpu(pid: number): Map<string, [string, number]> {
  const out = new Map<string, [string, number]>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(tid, [name, (Number(fields[11]) + Number(fields[12])) / 100]);
    } catch {
      // gone
    }
  }
  return out;
}

function cpuDelta(pid: number, before: Map<string, [string, number]>, after: Map<string, [string, number]>) {
  let main = 0;
  let total = 0;
  let busiestOther = 0;
  const others: Array<[string, number]> = [];
  for (const [tid, [name, seconds]] of after) {
    const d = seconds - (before.get(tid)?.[1] ?? 0);
    total += d;
    if (tid === String(pid)) main = d;
    else {
      busiestOther = Math.max(busiestOther, d);
      if (d >= 0.05) others.push([name, +d.toFixed(2)]);
    }
  }
  // The other threads that worked meanwhile, busiest first (the database's, the job threads, V8's).
  others.sort((a, b) => b[1] - a[1]);
  return { main: +main.toFixed(2), thread: +busiestOther.toFixed(2), total: +total.toFixed(2), others };
}

const SHORT_COPY: TCopy = { context: { "*": "Context {percent}% of {capacityBytes} B" } };

async function prepare(dir: string, size: number): Promise<void> {
  const dataDir = join(dir, "data");
  const db = await openDatabase({ url: "", dataDir });
  try {
    const main = await createKey(db, "scale", "bench scale");
    const other = await createKey(db, "scale-other", "bench scale (replay isolation)");
    const caller = await authenticate(db, `Bearer ${main.secret}`);
    await loadDataset(db, caller.projectId, size);
    const otherCaller = await authenticate(db, `Bearer ${other.secret}`);
    await ingestRuns(
      db,
      otherCaller.projectId,
      [0, 1, 2, 3, 4].map((i) => datasetRun(i, "other")),
    );
    const copyVersionId = (await createCopyVersion(db, caller, { name: "bench scale replay", copy: SHORT_COPY })).id;
    await settle(db);
    writeFileSync(join(dir, "keys.json"), JSON.stringify({ main: main.secret, other: other.secret, copyVersionId }));
  } finally {
    await db.close();
  }
}

async function once(dir: string, label: string): Promise<void> {
  const keys = JSON.parse(readFileSync(join(dir, "keys.json"), "utf8")) as { main: string; other: string; copyVersionId: string };
  const scratch = join(dir, "scratch");
  rmSync(scratch, { recursive: true, force: true });
  cpSync(join(dir, "data"), join(scratch, "data"), { recursive: true });
  const database: ScratchDatabase = {
    kind: "pglite",
    dataDir: join(scratch, "data"),
    open: () => openDatabase({ url: "", dataDir: join(scratch, "data") }),
    serverEnv: () => ({ DATABASE_URL: undefined, CUESCOPE_DATA_DIR: join(scratch, "data") }),
    remove: async () => {},
  };
  const load = loadavg();
  const server = await startScaleServer(database);
  try {
    const main = apiClient(server.base, keys.main);
    const other = apiClient(server.base, keys.other);
    const quiet = await sampleLatency(other, "/api/v1/runs", 20);
    // AB_WARM=1: a server that has run a replay before (its code compiled by V8, the database's
    // pages read once): one untimed replay of all but one of the runs first (not the same job).
    if (process.env.AB_WARM === "1") await replayUntilDone(main, { copyVersionId: keys.copyVersionId, maxRuns: 40 });
    let job: TReplayJob | undefined;
    const cpuBefore = threadCpu(server.pid);
    const poller = (async () => {
      job = await replayUntilDone(main, { copyVersionId: keys.copyVersionId, maxRuns: 5000 });
    })();
    // AB_NO_READS=1: the replay alone (no runs list or health polled meanwhile).
    const alone = process.env.AB_NO_READS === "1";
    const idle = { stop: async () => [] as Sample[] };
    const reads = alone ? idle : sampleUntilStopped(other, "/api/v1/runs");
    const health = alone ? idle : sampleUntilStopped(other, "/api/v1/health");
    await poller.finally(() => Promise.all([reads.stop(), health.stop()]));
    const cpu = cpuDelta(server.pid, cpuBefore, threadCpu(server.pid));
    const begin = Date.parse(job!.createdAt);
    const end = Date.parse(job!.finishedAt!);
    const during = (samples: Sample[]) => samples.filter((r) => r.at < end && r.at + r.ms > begin).map((r) => r.ms);
    const times = during(await reads.stop());
    const healthTimes = during(await health.stop());
    const seconds = (end - begin) / 1000;
    const result = (job!.result ?? null) as unknown;
    console.log(
      JSON.stringify({
        label,
        status: job!.status,
        turns: job!.progress.totalTurns,
        seconds,
        turnsPerS: Math.round(job!.progress.totalTurns / seconds),
        cpu,
        runsListRequests: times.length,
        quietP50: quiet.p50,
        quietP95: quiet.p95,
        during: times.length ? latencyOf(times) : null,
        health: healthTimes.length ? latencyOf(healthTimes) : null,
        load: load.map((l) => l.toFixed(2)).join(" "),
        resultHash: result
          ? execFileSync("sha256sum", { input: JSON.stringify(result) })
              .toString()
              .slice(0, 16)
          : null,
      }),
    );
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const [command, dir, ...rest] = process.argv.slice(2);
  if (command === "prepare") return prepare(dir, Number(rest[0] ?? 200_000));
  const roundsAt = rest.indexOf("--rounds");
  const rounds = roundsAt >= 0 ? Number(rest[roundsAt + 1]) : 1;
  const builds = rest
    .filter((arg, i) => arg.includes("=") && (roundsAt < 0 || i !== roundsAt + 1))
    .map((arg) => arg.split("=") as [string, string]);
  for (let r = 0; r < rounds; r++) {
    for (const [label, buildDir] of builds) {
      // Swap the build in as .next for its turn, and back afterwards.
      renameSync(buildDir, ".next");
      try {
        await once(dir, label);
      } finally {
        renameSync(".next", buildDir);
      }
    }
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
