/**
 * `npm run test:load [-- --duration 60 --senders 6 --rate 2 --turns 8] [--url URL --key KEY] [--port 3320]`
 *
 * A bounded loopback load on the ingestion API: several senders at a fixed rate each, sending
 * overlapping batches of the same runs; then every run is read back. Ends with a report —
 * requests, status counts, 5xx, events acknowledged vs stored, p50/p95 latency, the server's worst
 * event-loop lag (from `/api/v1/health`, asked every second; before sending it waits, up to 70 s,
 * for the stall of the server's own start to leave the lag's 60-s window) — and exits 1 when a 5xx
 * other than 503 was answered, acknowledged ≠ stored, or the event loop was blocked longer than 500 ms. Without --url it starts its own
 * production server (`next build` must have run) on a fresh embedded database in a temp directory.
 * It only ever targets this machine (127.0.0.1 / localhost / ::1).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { formatHealthWatch, healthPassed, MAX_EVENT_LOOP_LAG_MS, waitForQuietLoop, watchHealth } from "@/lib/client/health-watch";
import { assertLoopback, formatLoadReport, loadPassed, runLoad } from "@/lib/client/load";
import { createKey } from "@/lib/server/auth/keys";
import { openDatabase } from "@/lib/server/db";
import { env } from "@/lib/server/env";

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      url: { type: "string" },
      key: { type: "string" },
      port: { type: "string", default: "3320" },
      duration: { type: "string", default: "60" },
      senders: { type: "string", default: "6" },
      rate: { type: "string", default: "2" },
      turns: { type: "string", default: "8" },
    },
  });
  const durationS = Number(values.duration);
  const senders = Number(values.senders);
  const rate = Number(values.rate);
  if (!(durationS > 0 && senders >= 1 && rate > 0)) {
    console.error(
      "usage: npm run test:load -- [--duration SECONDS] [--senders N] [--rate BATCHES_PER_S] [--url URL --key KEY] [--port PORT]",
    );
    return 2;
  }

  let url = values.url;
  let key = values.key ?? env("CUESCOPE_API_KEY");
  let server: ChildProcess | undefined;
  let tempDir: string | undefined;
  try {
    if (url) {
      assertLoopback(url);
      if (!key) throw new Error("--url needs --key (or CUESCOPE_API_KEY)");
    } else {
      if (!existsSync(".next/BUILD_ID")) throw new Error("no production build: run `npm run build` first, or pass --url and --key");
      tempDir = mkdtempSync(join(tmpdir(), "cuescope-load-"));
      const dataDir = join(tempDir, "data");
      const db = await openDatabase({ url: "", dataDir });
      key = (await createKey(db, "load-test")).secret;
      await db.close();
      url = `http://127.0.0.1:${values.port}`;
      console.error(`starting a production server on ${url} (embedded database in ${dataDir}) ...`);
      server = await startServer(url, Number(values.port), dataDir);
    }

    console.error(`sending for ${durationS} s: ${senders} senders × ${rate} batches/s, overlapping batches of the same runs`);
    const before = await waitForQuietLoop(url);
    if (before !== null && before > MAX_EVENT_LOOP_LAG_MS)
      console.error(`the server's event loop still reports a ${before} ms stall before the load`);
    const health = watchHealth(url);
    const report = await runLoad({
      url,
      key: key!,
      durationMs: durationS * 1000,
      senders,
      ratePerSender: rate,
      turnsPerRun: Number(values.turns),
      onProgress: (p) => {
        const statuses = Object.entries(p.statuses)
          .map(([s, n]) => `${s}×${n}`)
          .join(" ");
        process.stderr.write(
          `\r${(p.elapsedMs / 1000).toFixed(0).padStart(4)} s  requests ${p.requests}  ${statuses}  acknowledged ${p.acknowledged}   `,
        );
      },
    });
    process.stderr.write("\n");
    const watched = await health.stop();
    console.log(formatLoadReport(report));
    console.log(formatHealthWatch(watched));
    const passed = loadPassed(report);
    const lagPassed = healthPassed(watched);
    console.log(passed ? "PASS: no 5xx other than 503, every acknowledged event stored once" : "FAIL");
    console.log(
      lagPassed
        ? `PASS: event-loop lag ≤ ${MAX_EVENT_LOOP_LAG_MS} ms`
        : `FAIL: event-loop lag over ${MAX_EVENT_LOOP_LAG_MS} ms (or not reported)`,
    );
    return passed && lagPassed ? 0 : 1;
  } finally {
    if (server) {
      server.kill("SIGTERM");
      await new Promise((resolve) => server!.once("exit", resolve));
    }
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  }
}

async function startServer(url: string, port: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", String(port)], {
    env: { ...process.env, DATABASE_URL: "", CUESCOPE_DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: "1", CUESCOPE_SERVER_URL: url },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/api/v1/health`);
      if (response.ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  child.kill("SIGTERM");
  throw new Error(`the server did not answer ${url}/api/v1/health within 120 s`);
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`test:load: ${(error as Error).message}`);
    process.exit(2);
  },
);
