import { rmSync } from "node:fs";
import { chromium, expect, test, type Browser, type Page } from "@playwright/test";
import { signOutButton } from "./support/account-menu";
import { CHROMIUM_ARGS } from "./support/chromium";
import { createNetns, HOST_ADDRESS, NS_ADDRESS, netnsUnavailable, type Netns } from "./support/netns";
import { startOwnServer, type OwnServer } from "./support/own-server";
import { E2E_PORT } from "./support/targets";

/**
 * Issue #10: embedded demo mode is local by default. A server started with HOST=0.0.0.0 (exposed
 * on purpose) is reached from another machine — a browser running inside a network namespace,
 * connected by a veth pair (10.231.7.2 → 10.231.7.1) — and from this machine over loopback.
 * The demo button works only on loopback, a spoofed X-Forwarded-For does not change that, a
 * key still works from the other machine, and wrong keys from there are rate limited. The
 * shared e2e server (HOST unset) is not reachable from the other machine at all.
 */
const PORT = E2E_PORT + 2;
const SERVER_DIR = ".cuescope/e2e-network";
const SHARED_PORT = E2E_PORT;

test.describe.configure({ mode: "serial", timeout: 90_000 });

let ns: Netns | undefined;
let server: OwnServer | undefined;
let remoteBrowser: Browser | undefined;
const remoteUrl = `http://${HOST_ADDRESS}:${PORT}`;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const why = netnsUnavailable();
  if (why) {
    if (process.env.CI) throw new Error(`demo-network.spec.ts must run in CI: ${why}`);
    test.skip(true, `skipped: ${why} (runs as root, and is required in CI)`);
    return;
  }
  ns = createNetns("auth"); // a fixed name: a run that was killed leaves nothing behind the next one

  // Browsers on the other machine address it by its network address, which an operator lists (DNS rebinding, issue 22).
  server = await startOwnServer({ port: PORT, host: "0.0.0.0", dir: SERVER_DIR, env: { CUESCOPE_ALLOWED_HOSTS: HOST_ADDRESS } });
  remoteBrowser = await chromium.launch({ executablePath: ns.browserWrapper, args: CHROMIUM_ARGS });
});

test.afterAll(async () => {
  await remoteBrowser?.close().catch(() => {});
  if (test.info().status !== test.info().expectedStatus) console.log(server?.log());
  await server?.stop();
  ns?.remove();
  rmSync(SERVER_DIR, { recursive: true, force: true });
});

async function remotePage(headers?: Record<string, string>): Promise<Page> {
  const context = await remoteBrowser!.newContext({ baseURL: remoteUrl, extraHTTPHeaders: headers });
  return context.newPage();
}

test("the demo button works on a direct loopback connection, not through a local proxy", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server!.url });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByRole("button", { name: "Open the demo project" }).click();
  await expect(page).toHaveURL(`${server!.url}/runs`, { timeout: 30_000 }); // a cold server builds the runs cache first
  await expect(await signOutButton(page)).toBeVisible();
  await context.close();

  // Through a proxy on this machine (or anything sending forwarding headers) loopback is not enough.
  const proxied = await browser.newContext({ baseURL: server!.url, extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.5" } });
  const viaProxy = await proxied.newPage();
  await viaProxy.goto("/login");
  await viaProxy.getByRole("button", { name: "Open the demo project" }).click();
  await expect(viaProxy.locator("p.form-error[role=alert]")).toContainText("came through a proxy");
  await proxied.close();
});

test("from another machine the demo button is refused with the reason, even with a spoofed X-Forwarded-For", async () => {
  for (const headers of [undefined, { "X-Forwarded-For": "127.0.0.1", "X-Real-IP": "127.0.0.1", Forwarded: "for=127.0.0.1" }]) {
    const page = await remotePage(headers);
    await page.goto("/login");
    await expect(page).toHaveURL(`${remoteUrl}/login`);
    await page.getByRole("button", { name: "Open the demo project" }).click();
    const alert = page.locator("p.form-error[role=alert]");
    await expect(alert).toContainText("only from the machine that runs Cuescope");
    await expect(alert).toContainText(`your connection comes from ${NS_ADDRESS}`);
    await expect(alert).toContainText("Sign in with a project API key");
    expect((await page.context().cookies()).map((c) => c.name)).not.toContain("cuescope_session");
    await page.goto("/runs");
    await expect(page).toHaveURL(/\/login\?next=%2Fruns/);
    await page.context().close();
  }
});

test("from another machine a project key signs in (how to use an exposed server)", async () => {
  const page = await remotePage();
  await page.goto("/login");
  await page.getByLabel("Project API key").fill(server!.demoKey);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(`${remoteUrl}/runs`, { timeout: 30_000 });
  await page.context().close();
});

test("the default server (HOST unset) listens on loopback only: unreachable from the other machine", async () => {
  const page = await remotePage();
  const failure = await page.goto(`http://${HOST_ADDRESS}:${SHARED_PORT}/login`).catch((error: Error) => error);
  expect(failure).toBeInstanceOf(Error);
  expect(String(failure)).toMatch(/ERR_CONNECTION_REFUSED/);
  await page.context().close();
});

test("wrong keys from the other machine are rate limited (form message, then 429 + Retry-After); a valid key from loopback still works", async ({
  request,
}) => {
  const page = await remotePage();
  await page.goto("/login");
  const alert = page.locator("p.form-error[role=alert]");
  for (let i = 1; i <= 10; i++) {
    await page.getByLabel("Project API key").fill(`cs_wrong_${i}`);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(alert).toContainText("not accepted");
    await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeEnabled();
  }
  await expect(alert).toContainText("Too many wrong keys from your address");
  await page.getByLabel("Project API key").fill(server!.demoKey);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(alert).toHaveText(/^Too many wrong keys from your address: wait \d+ s/);

  // The API from the same machine (the browser's own fetch, from 10.231.7.2).
  const answer = await page.evaluate(async () => {
    const response = await fetch("/api/v1/runs", { headers: { authorization: "Bearer cs_wrong_api" } });
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json() };
  });
  expect(answer.status).toBe(429);
  expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(answer.body.error.code).toBe("rate_limited");
  // Another address is not affected.
  const fromLoopback = await request.get(`${server!.url}/api/v1/runs`, { headers: { authorization: `Bearer ${server!.demoKey}` } });
  expect(fromLoopback.status()).toBe(200);
  await page.context().close();
});
