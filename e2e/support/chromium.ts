import { env } from "@/lib/server/env";

/**
 * Debian's Chromium as every browser here launches it (the e2e suite, the network spec's second
 * machine, the run-page benchmark): `playwright install` is never used, and the browser is told
 * not to reach the network on its own.
 */
export const CHROMIUM_PATH = env("CHROMIUM_PATH");

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
