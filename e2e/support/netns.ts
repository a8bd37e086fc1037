import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A network namespace joined to this host by a veth pair: the host side is HOST_ADDRESS, the
 * namespace's side NS_ADDRESS (our own test hosts on a /30; nothing else is reachable from inside).
 * A browser launched through `browserWrapper()` runs inside it, so the app sees a connection
 * from another machine. Needs root (`ip netns`); always `remove()` it.
 */
export const HOST_ADDRESS = "10.231.7.1";
export const NS_ADDRESS = "10.231.7.2";

export interface Netns {
  name: string;
  /** An executable that runs /usr/bin/chromium (or CHROMIUM_PATH) inside the namespace. */
  browserWrapper: string;
  remove(): void;
}

function ip(...args: string[]): void {
  execFileSync("ip", args, { stdio: ["ignore", "ignore", "pipe"] });
}

/** Why netns cannot be used here, or null when it can. */
export function netnsUnavailable(): string | null {
  if (process.getuid?.() !== 0) return "needs root to create a network namespace";
  try {
    execFileSync("ip", ["netns", "list"], { stdio: "ignore" });
    return null;
  } catch (error) {
    return `\`ip netns\` does not work here: ${(error as Error).message}`;
  }
}

export function createNetns(tag: string): Netns {
  const name = `cs-${tag}`;
  const hostSide = `cs${tag}h`.slice(0, 15);
  const nsSide = `cs${tag}n`.slice(0, 15);
  const dir = mkdtempSync(join(tmpdir(), "cuescope-netns-"));
  const browserWrapper = join(dir, "chromium-in-netns");
  const removeNetwork = () => {
    try {
      ip("link", "del", hostSide); // also removes the namespace's end
    } catch {}
    try {
      ip("netns", "del", name);
    } catch {}
  };
  const remove = () => {
    removeNetwork();
    rmSync(dir, { recursive: true, force: true });
  };
  removeNetwork(); // leftovers of an interrupted run
  try {
    ip("netns", "add", name);
    ip("link", "add", hostSide, "type", "veth", "peer", "name", nsSide);
    ip("link", "set", nsSide, "netns", name);
    ip("addr", "add", `${HOST_ADDRESS}/30`, "dev", hostSide);
    ip("link", "set", hostSide, "up");
    ip("-n", name, "addr", "add", `${NS_ADDRESS}/30`, "dev", nsSide);
    ip("-n", name, "link", "set", nsSide, "up");
    ip("-n", name, "link", "set", "lo", "up");
    const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
    writeFileSync(browserWrapper, `#!/bin/sh\nexec ip netns exec ${name} ${chromium} "$@"\n`);
    chmodSync(browserWrapper, 0o755);
  } catch (error) {
    remove();
    throw error;
  }
  return { name, browserWrapper, remove };
}
