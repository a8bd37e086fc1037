import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./e2e/support/chromium";
import { oidcEnv, oidcIssuer } from "./e2e/support/oidc";
import { apiTargets, E2E_DIR, E2E_PG_DIR, E2E_PORT, E2E_SETUP_LINK } from "./e2e/support/targets";

const PORT = E2E_PORT;
/** Set to test a server you started yourself (e.g. `next dev`) instead of the production one below. */
const externalServer = process.env.E2E_BASE_URL;
const baseURL = externalServer ?? `http://127.0.0.1:${PORT}`;
const isCI = Boolean(process.env.CI);

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
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    {
      name: "chromium",
      testIgnore: /e2e\/api\//,
      use: { ...devices["Desktop Chrome"], viewport: { width: 1366, height: 900 } },
    },
    // The API specs (fuzzing, concurrency, load) run against every server: PGlite always, and
    // PostgreSQL when DATABASE_URL is set.
    ...apiTargets().map((target) => ({
      name: `api-${target.database}`,
      testMatch: /e2e\/api\/.*\.spec\.ts/,
      use: { baseURL: target.baseURL },
      metadata: { target },
    })),
  ],
  // The real start path (`scripts/start.sh`: migrations, demo data, then `next start`) on a fresh
  // embedded database of its own, whatever DATABASE_URL says: the pages are tested on demo data.
  // With DATABASE_URL, a second production server on a fresh PostgreSQL database serves the API specs.
  webServer: externalServer
    ? undefined
    : [
        // The OpenID provider first: the app reads its discovery document.
        {
          command: "node node_modules/tsx/dist/cli.mjs e2e/support/oidc-provider.ts",
          url: `${oidcIssuer()}/.well-known/openid-configuration`,
          reuseExistingServer: false,
          timeout: 60_000,
          stdout: "pipe" as const,
          stderr: "pipe" as const,
        },
        {
          command: `rm -rf ${E2E_DIR} && env -u DATABASE_URL CUESCOPE_BUILD=never CUESCOPE_DATA_DIR=${E2E_DIR}/data bash scripts/start.sh`,
          url: `${baseURL}/api/v1/health`,
          reuseExistingServer: false,
          timeout: 180_000,
          stdout: "pipe" as const,
          stderr: "pipe" as const,
          env: { NEXT_TELEMETRY_DISABLED: "1", PORT: String(PORT), CUESCOPE_SETUP_LINK_FILE: E2E_SETUP_LINK, ...oidcEnv() },
        },
        ...(process.env.DATABASE_URL
          ? [
              {
                command: "node node_modules/tsx/dist/cli.mjs e2e/support/postgres-server.ts",
                url: `http://127.0.0.1:${PORT + 1}/api/v1/health`,
                reuseExistingServer: false,
                timeout: 180_000,
                stdout: "pipe" as const,
                stderr: "pipe" as const,
                env: { NEXT_TELEMETRY_DISABLED: "1", PORT: String(PORT + 1), E2E_STATE_DIR: E2E_PG_DIR },
              },
            ]
          : []),
      ],
});
