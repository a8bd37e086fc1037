import { defineConfig, devices } from "@playwright/test";

const PORT = 3100;
/** Set to test a server you started yourself (e.g. `next dev`) instead of the production one below. */
const externalServer = process.env.E2E_BASE_URL;
const baseURL = externalServer ?? `http://127.0.0.1:${PORT}`;
const isCI = Boolean(process.env.CI);
/** Where the e2e server keeps its embedded database and demo key (local state, not in git). */
export const E2E_DIR = ".cuescope/e2e";

/**
 * End-to-end tests against the PRODUCTION server (`next build` runs before, in scripts/test-all.sh).
 * The browser is Debian's Chromium (/usr/bin/chromium); `playwright install` is never used.
 */
export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  forbidOnly: isCI,
  retries: isCI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: isCI ? [["list"]] : [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    {
      name: "chromium",
      use: { ...devices["Desktop Chrome"], viewport: { width: 1366, height: 900 } },
    },
  ],
  // The real start path (`scripts/start.sh`: migrations, demo data, then `next start`) on a fresh
  // embedded database of its own, whatever DATABASE_URL says: the pages are tested on demo data.
  webServer: externalServer
    ? undefined
    : {
        command: `rm -rf ${E2E_DIR} && env -u DATABASE_URL CUESCOPE_BUILD=never CUESCOPE_DATA_DIR=${E2E_DIR}/data bash scripts/start.sh`,
        url: `${baseURL}/api/v1/health`,
        reuseExistingServer: false,
        timeout: 180_000,
        stdout: "pipe",
        stderr: "pipe",
        env: { NEXT_TELEMETRY_DISABLED: "1", PORT: String(PORT) },
      },
});
