/**
 * The run page of a 5,000-turn run in real Chromium: time from navigation to the first meter chart
 * drawn, next to a plain static page load (the prerendered home page) in the same run.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "@/e2e/support/chromium";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { benchPort, fmt, median, table, verdict, type BenchContext, type BenchSection } from "./common";

const PORT = benchPort(3312);
const BASE = `http://127.0.0.1:${PORT}`;
const RUN_ID = "bench-page-5000";
const CHROMIUM = CHROMIUM_PATH;

export function pageSection(): BenchSection {
  return {
    name: "page",
    description: "run page of a 5,000-turn run in Chromium: navigation → first meter chart drawn, vs a static page load",
    run,
  };
}

async function run(ctx: BenchContext): Promise<void> {
  if (!existsSync(".next/BUILD_ID")) return ctx.print("skipped: no production build (run `npm run build` first)");
  if (!existsSync(CHROMIUM)) return ctx.print(`skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
  const dataDir = join(mkdtempSync(join(tmpdir(), "cuescope-bench-page-")), "data");
  let server: ChildProcess | undefined;
  try {
    server = await startServer(dataDir, ctx);
    const key = readFileSync(join(dirname(dataDir), "demo-key"), "utf8").trim();
    await loadRun(key, ctx);
    // Warm the decisions cache and the server's code paths once, as a user's second visit would.
    await fetch(`${BASE}/api/v1/runs/${RUN_ID}/timeline`, { headers: { authorization: `Bearer ${key}` } });

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
    });
    try {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      const page = await context.newPage();
      // Sign in as a person would: the session cookie is a server-side session, not the key.
      await page.goto(`${BASE}/login`);
      await page.getByLabel("Project API key").fill(key);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(/\/runs/, { timeout: 60_000 });
      const chart: number[] = [];
      const plain: number[] = [];
      for (let i = 0; i < ctx.repeats; i++) {
        ctx.progress(`page load ${i + 1}/${ctx.repeats}`);
        let started = Date.now();
        await page.goto(`${BASE}/`, { waitUntil: "load" });
        plain.push(Date.now() - started);
        started = Date.now();
        await page.goto(`${BASE}/runs/${RUN_ID}`, { waitUntil: "commit" });
        await page.locator("svg.recharts-surface").first().waitFor({ state: "visible", timeout: 30_000 });
        chart.push(Date.now() - started);
      }
      ctx.print(
        table(
          ["page", "median ms", "min ms", "max ms"],
          [
            ["static page (/), load event", fmt.ms(median(plain)), fmt.ms(Math.min(...plain)), fmt.ms(Math.max(...plain))],
            [`run page, 5,000 turns → first chart`, fmt.ms(median(chart)), fmt.ms(Math.min(...chart)), fmt.ms(Math.max(...chart))],
          ],
        ),
      );
      ctx.print(
        `first chart ${fmt.ms(median(chart))} ms (target <= 1500 ms) ${verdict(median(chart), 1500)}; ${fmt.ratio(median(chart) / median(plain))}x the static page`,
      );
    } finally {
      await browser.close();
    }
  } finally {
    if (server?.pid) process.kill(-server.pid, "SIGTERM"); // the whole group: start.sh and the server it execs
    await new Promise((resolve) => setTimeout(resolve, 500));
    rmSync(dirname(dataDir), { recursive: true, force: true });
  }
}

async function loadRun(key: string, ctx: BenchContext): Promise<void> {
  ctx.progress("generating and sending a 5,000-turn run ...");
  const events = generateEtfRun({ runId: RUN_ID, seed: 5, turns: 5000, anomalies: true }).events.map((e) => ({
    ...e,
    id: `${RUN_ID}:${e.id}`,
  }));
  for (let i = 0; i < events.length; i += 1000) {
    const response = await fetch(`${BASE}/api/v1/ingest`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ batch: events.slice(i, i + 1000) }),
    });
    if (response.status !== 207) throw new Error(`ingest answered ${response.status}`);
  }
}

async function startServer(dataDir: string, ctx: BenchContext): Promise<ChildProcess> {
  ctx.progress("starting the production server with demo data ...");
  const env: NodeJS.ProcessEnv = { ...process.env, CUESCOPE_DATA_DIR: dataDir, PORT: String(PORT), CUESCOPE_BUILD: "never" };
  delete env.DATABASE_URL;
  const child = spawn("bash", ["scripts/start.sh"], { env, stdio: "ignore", detached: true });
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${BASE}/api/v1/health`)).ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("the server did not start within 120 s");
}
