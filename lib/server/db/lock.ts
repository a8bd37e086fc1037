import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";

/** Who holds an embedded data directory. */
export interface LockHolder {
  pid: number;
  hostname: string;
  command: string;
  startedAt: string;
  /** The holder's HTTP address, when it is a running Cuescope server: other tools go through it. */
  url?: string;
}

/** The embedded data directory is already open in another live process. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `the embedded database ${dataDir} is in use by process ${holder.pid} on ${holder.hostname} (${holder.command}, since ${holder.startedAt})` +
        (holder.url ? `; reach its data through ${holder.url}` : "; stop it first or set DATABASE_URL to use a PostgreSQL server"),
    );
    this.name = "DataDirLockedError";
  }
}

export function lockPathFor(dataDir: string): string {
  return `${dataDir.replace(/\/+$/, "")}.lock`;
}

/** Reads the lock of a data directory; undefined when nobody live holds it. */
export function readLiveHolder(dataDir: string): LockHolder | undefined {
  let holder: LockHolder;
  try {
    holder = JSON.parse(readFileSync(lockPathFor(dataDir), "utf8")) as LockHolder;
  } catch {
    return undefined;
  }
  return isAlive(holder) ? holder : undefined;
}

function isAlive(holder: LockHolder): boolean {
  if (holder.hostname !== hostname()) return true; // cannot tell: assume it is
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes the lock on an embedded data directory (two processes writing one PGlite directory lose
 * data silently). A lock left by a process that is gone is taken over. Returns the release function.
 */
export function acquireDataDirLock(dataDir: string, url?: string): () => void {
  const path = lockPathFor(dataDir);
  mkdirSync(dirname(path), { recursive: true });
  const me: LockHolder = {
    pid: process.pid,
    hostname: hostname(),
    command: process.argv.slice(1, 3).join(" ") || "node",
    startedAt: new Date().toISOString(),
    ...(url ? { url } : {}),
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (readHolderRaw(path)?.pid === process.pid) rmSync(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readHolderRaw(path);
      if (holder && isAlive(holder)) throw new DataDirLockedError(dataDir, holder);
      rmSync(path, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`could not take the lock ${path}`);
}

function readHolderRaw(path: string): LockHolder | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as LockHolder;
  } catch {
    return undefined;
  }
}
