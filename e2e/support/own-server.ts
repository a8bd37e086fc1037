import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

/**
 * A production server of a spec's own (scripts/start.sh, as `npm start` runs it) on a fresh
 * embedded database with the demo data, for specs that need a different HOST than the shared one.
 */
export interface OwnServer {
  url: string;
  demoKey: string;
  log: () => string;
  stop(): Promise<void>;
}

export async function startOwnServer(options: {
  port: number;
  host: string;
  dir: string;
  env?: Record<string, string>;
}): Promise<OwnServer> {
  rmSync(options.dir, { recursive: true, force: true });
  let output = "";
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL; // the embedded database, whatever the caller's environment says
  const child: ChildProcess = spawn("bash", ["scripts/start.sh"], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...env,
      CUESCOPE_BUILD: "never",
      CUESCOPE_DATA_DIR: join(options.dir, "data"),
      HOST: options.host,
      PORT: String(options.port),
      NEXT_TELEMETRY_DISABLED: "1",
      ...options.env,
    },
  });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const stop = async () => {
    if (child.exitCode !== null || !child.pid) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
  };
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${url}/api/v1/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server did not answer on ${url}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { url, demoKey: readFileSync(join(options.dir, "demo-key"), "utf8").trim(), log: () => output, stop };
}
