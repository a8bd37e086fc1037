import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext, type BrowserContext } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./support/chromium";
import { E2E_PORT } from "./support/targets";
import { signOut } from "./support/account-menu";
import { autoSubmitPage, serveOtherOrigin } from "./support/other-origin";
import { signInToDemo } from "./support/sign-in";

/**
 * Issue #10, in a real browser against the production server: open redirects after sign-in,
 * CSRF from another origin (another port of the same host: same site, so SameSite=Lax does not
 * help), session cookies and sign-out. The demo button from another machine is in
 * demo-network.spec.ts.
 */
const demoKey = () => readFileSync(".cuescope/e2e/demo-key", "utf8").trim();
const ATTACKER_PORT = E2E_PORT + 3;
const SESSION = "cuescope_session";

async function sessionCookie(context: BrowserContext) {
  return (await context.cookies()).find((c) => c.name === SESSION);
}

test.describe("open redirect after sign-in", () => {
  const crafted = [
    "/\\evil.example",
    "\\\\evil.example",
    "/%5Cevil.example",
    "//evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/.//evil.example",
    "https://evil.example/runs",
    "javascript:alert(document.domain)",
  ];

  for (const next of crafted) {
    test(`next=${JSON.stringify(next)} ends on the app's /runs (demo button)`, async ({ page, baseURL }) => {
      await page.goto(`/login?next=${encodeURIComponent(next)}`);
      // The page already drops it; post it anyway, as a hostile page could, so the action's own check is what is tested.
      await expect(page.locator('form.sign-in-demo input[name="next"]')).toHaveValue("/runs");
      await page.locator('form.sign-in-demo input[name="next"]').evaluate((input: HTMLInputElement, value) => (input.value = value), next);
      await page.getByRole("button", { name: "Open the demo project" }).click();
      await expect(page).toHaveURL(`${baseURL}/runs`);
    });
  }

  test("the key form also refuses a crafted next, even one typed into the form itself", async ({ page, baseURL }) => {
    await page.goto(`/login?next=${encodeURIComponent("/\\evil.example")}`);
    // A hostile page could post any value: rewrite the hidden field as it would.
    await page.locator('form.sign-in-key input[name="next"]').evaluate((input: HTMLInputElement) => (input.value = "/\\evil.example"));
    await page.getByLabel("Project API key").fill(demoKey());
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(`${baseURL}/runs`);
  });

  test("a same-origin next is kept", async ({ page }) => {
    await signInToDemo(page, "/copy");
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/copy/);
  });
});

test.describe("sessions", () => {
  test("the cookie is an HttpOnly, SameSite=Lax session token, not the key; after sign-out it is dead while the key still works", async ({
    page,
    context,
    request,
  }) => {
    await signInToDemo(page);
    const cookie = await sessionCookie(context);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false, path: "/" }); // served over http here
    expect(cookie!.value).not.toBe(demoKey());
    expect(cookie!.value).not.toContain("cs_");
    expect(cookie!.expires * 1000 - Date.now()).toBeLessThanOrEqual(7 * 86_400_000 + 60_000);
    expect((await context.cookies()).some((c) => c.name === "cuescope_key")).toBe(false);

    const withCookie = (api: APIRequestContext, value: string) => api.get("/api/v1/runs", { headers: { cookie: `${SESSION}=${value}` } });
    expect((await withCookie(request, cookie!.value)).status()).toBe(200);

    await signOut(page);
    expect(await sessionCookie(context)).toBeUndefined();

    // The old value, replayed: refused by the API and by the pages.
    const replay = await withCookie(request, cookie!.value);
    expect(replay.status()).toBe(401);
    expect((await replay.json()).error.message).toMatch(/signed out/);
    await context.addCookies([{ ...cookie! }]);
    await page.goto("/runs");
    await expect(page).toHaveURL(/\/login\?next=%2Fruns/);

    // The API key itself was not touched by signing out.
    expect((await request.get("/api/v1/runs", { headers: { authorization: `Bearer ${demoKey()}` } })).status()).toBe(200);
    // And the raw key in the old cookie name is no longer a way in.
    expect((await request.get("/api/v1/runs", { headers: { cookie: `cuescope_key=${demoKey()}` } })).status()).toBe(401);
  });
});

test.describe("CSRF from another origin", () => {
  let versionId: string;
  let originalDefault: string | null;
  const bearer = () => ({ authorization: `Bearer ${demoKey()}` });

  async function currentDefault(request: APIRequestContext): Promise<string | null> {
    const { versions } = await (await request.get("/api/v1/copy-versions", { headers: bearer() })).json();
    return versions.find((v: { isDefault: boolean }) => v.isDefault)?.id ?? null;
  }

  test.beforeAll(async ({ request }) => {
    const created = await request.post("/api/v1/copy-versions", {
      headers: bearer(),
      data: { name: `csrf target ${Date.now()}`, copy: {} },
    });
    expect(created.status()).toBe(201);
    versionId = (await created.json()).id;
    originalDefault = await currentDefault(request);
    expect(originalDefault).not.toBe(versionId);
  });

  test.afterAll(async ({ request }) => {
    if (originalDefault) await request.post(`/api/v1/copy-versions/${originalDefault}/default`, { headers: bearer() });
  });

  test("a form auto-posted from another port gets 403 and the default does not change; the app's own button still works", async ({
    page,
    request,
    baseURL,
  }) => {
    await signInToDemo(page);
    const target = `${baseURL}/api/v1/copy-versions/${versionId}/default`;
    const attacker = await serveOtherOrigin(ATTACKER_PORT, () => autoSubmitPage(`<form method="POST" action="${target}"></form>`));
    try {
      const answer = page.waitForResponse((r) => r.url() === target);
      await page.goto(attacker.url);
      const response = await answer;
      expect(response.status()).toBe(403);
      expect((await response.json()).error).toMatchObject({
        code: "forbidden",
        message: expect.stringMatching(/cross-origin request refused/),
      });
      expect(await currentDefault(request)).toBe(originalDefault);
    } finally {
      await attacker.close();
    }

    // The same change from the app's own page is accepted.
    await page.goto("/copy");
    const row = page.getByRole("table", { name: "Copy versions" }).locator(`tr[data-version^="csrf target"]`).last();
    await row.getByRole("button", { name: "Make default" }).click();
    await expect(row).toContainText("project default");
    expect(await currentDefault(request)).toBe(versionId);
  });

  test("Next's server actions refuse sign-out and sign-in forms posted from another origin", async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    await signInToDemo(page);
    const session = (await sessionCookie(context))!.value;
    // The attacker copies the app's own sign-out form (server-rendered, with its action id) and posts it from elsewhere.
    const runsHtml = await (await request.get("/runs", { headers: { cookie: `${SESSION}=${session}` } })).text();
    const signOutForm = serverForm(runsHtml, "nav-session", `${baseURL}/runs`);
    const attacker = await serveOtherOrigin(ATTACKER_PORT, () => autoSubmitPage(signOutForm));
    try {
      const answer = page.waitForResponse((r) => r.url() === `${baseURL}/runs` && r.request().method() === "POST");
      await page.goto(attacker.url);
      expect((await answer).status()).toBe(403);
    } finally {
      await attacker.close();
    }
    expect((await request.get("/api/v1/runs", { headers: { cookie: `${SESSION}=${session}` } })).status()).toBe(200);
    expect((await sessionCookie(context))?.value).toBe(session);

    // Login CSRF: signing a visitor into someone's project from another page is refused too.
    await context.clearCookies();
    const loginHtml = await (await request.get("/login")).text();
    const keyForm = serverForm(loginHtml, "sign-in-key", `${baseURL}/login`).replace(
      /<input([^>]*)name="key"([^>]*)>/,
      `<input name="key" value="${demoKey()}">`,
    );
    expect(keyForm).toContain(demoKey());
    const login = await serveOtherOrigin(ATTACKER_PORT, () => autoSubmitPage(keyForm));
    try {
      const answer = page.waitForResponse((r) => r.url() === `${baseURL}/login` && r.request().method() === "POST");
      await page.goto(login.url);
      expect((await answer).status()).toBe(403);
    } finally {
      await login.close();
    }
    expect(await sessionCookie(context)).toBeUndefined();
  });
});

/** A server-rendered server-action form of the app (hidden action fields included), aimed at `action`. */
function serverForm(html: string, className: string, action: string): string {
  const match = new RegExp(`<form[^>]*class="${className}"[^>]*>[\\s\\S]*?</form>`).exec(html);
  expect(match, `a <form class="${className}"> in the server-rendered page`).not.toBeNull();
  const form = match![0];
  expect(form).toMatch(/\$ACTION_/);
  return form.replace(/\saction="[^"]*"/, "").replace("<form", `<form action="${action}"`);
}

test.describe("issue 22: refusals that come before anything renders", () => {
  const DATA_PAGES = [
    "/runs",
    "/runs?sort=-findings",
    "/runs/no-such-run?turn=2",
    "/reviewer",
    "/reviewer?violations=true",
    "/trends",
    "/alerts",
    "/copy",
    "/copy/policy",
    "/copy/replay",
    "/copy/replay/no-job/runs/no-run/turns/1",
  ];

  for (const cookie of [undefined, `${SESSION}=not-a-session`]) {
    test(`every data page ${cookie ? "with a dead session cookie" : "without a session"} answers a 307 to sign-in, not a 200 that redirects later`, async ({
      request,
    }) => {
      for (const path of DATA_PAGES) {
        const response = await request.get(path, { maxRedirects: 0, headers: cookie ? { cookie } : {} });
        expect(response.status(), path).toBe(307);
        const location = new URL(response.headers()["location"], "http://app.invalid");
        expect(location.pathname, path).toBe("/login");
        expect(location.searchParams.get("next"), path).toMatch(new RegExp(`^${path.split("?")[0]}`));
      }
    });
  }

  test("server actions from another origin or with Origin: null answer 403 (not 500) and set no cookie", async ({ page, request }) => {
    // The demo button's form as the page renders it (its hidden action fields decoded by the browser).
    await page.goto("/login");
    const fields = await page
      .locator("form.sign-in-demo")
      .evaluate((form: HTMLFormElement) => Object.fromEntries([...new FormData(form)].map(([name, value]) => [name, String(value)])));
    expect(Object.keys(fields).some((name) => name.startsWith("$ACTION_"))).toBe(true);
    for (const headers of <Record<string, string>[]>[
      { origin: "null" },
      { origin: `http://127.0.0.1:${ATTACKER_PORT}` },
      { origin: "null", "sec-fetch-site": "cross-site" },
      {},
    ]) {
      const response = await request.post("/login", { headers, multipart: fields, maxRedirects: 0 });
      expect(response.status(), JSON.stringify(headers)).toBe(403);
      expect(await response.text()).toMatch(/cross-origin request refused: a form of this app \(a server action\)/);
      expect(response.headers()["set-cookie"]).toBeUndefined();
    }
    // The same form from the app's own page signs in.
    const own = await request.post("/login", { headers: { origin: `http://127.0.0.1:${E2E_PORT}` }, multipart: fields, maxRedirects: 0 });
    expect(own.status()).toBe(303);
    expect(own.headers()["set-cookie"]).toContain(`${SESSION}=`);
  });

  test("DNS rebinding: under a name that resolves to this machine but is not its own, no page, no demo, no session; keys still work", async ({
    playwright,
  }) => {
    test.setTimeout(120_000); // a browser of its own, and a demo sign-in that renders the runs list on a busy machine
    const browser = await playwright.chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS, "--host-resolver-rules=MAP rebind.test 127.0.0.1"],
    });
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      const rebound = `http://rebind.test:${E2E_PORT}`;
      for (const path of ["/login", "/runs", "/"]) {
        const response = (await page.goto(`${rebound}${path}`))!;
        expect(response.status(), path).toBe(403);
        await expect(page.locator("body")).toContainText(`"rebind.test:${E2E_PORT}"`);
        await expect(page.locator("body")).toContainText("CUESCOPE_ALLOWED_HOSTS=rebind.test");
      }
      // The attacker's script, now same-origin with this server under its own name: the demo sign-in is refused …
      const answer = await page.evaluate(async () => {
        const form = new FormData();
        form.set("next", "/runs");
        const response = await fetch("/login", { method: "POST", body: form, headers: { "next-action": "0".repeat(42) } });
        return { status: response.status, text: await response.text() };
      });
      expect(answer.status).toBe(403);
      expect(answer.text).toContain("CUESCOPE_ALLOWED_HOSTS");
      expect(await context.cookies()).toEqual([]);
      // … the API takes no session cookie under that name, even a valid one …
      const demoSession = await (async () => {
        const own = await browser.newContext();
        const ownPage = await own.newPage();
        await signInToDemo(ownPage, "/runs", `http://127.0.0.1:${E2E_PORT}`);
        const value = (await sessionCookie(own))!.value;
        await own.close();
        return value;
      })();
      const api = await page.evaluate(async (cookie) => {
        document.cookie = cookie;
        const response = await fetch("/api/v1/runs");
        return { status: response.status, body: await response.json() };
      }, `${SESSION}=${demoSession}`);
      expect(api.status).toBe(403);
      expect(api.body.error.message).toMatch(/session cookie is not accepted here.*rebind\.test/);
      // … while an API key works under any name.
      const keyed = await page.evaluate(
        async (key) => (await fetch("/api/v1/runs", { headers: { authorization: `Bearer ${key}` } })).status,
        demoKey(),
      );
      expect(keyed).toBe(200);
    } finally {
      await browser.close();
    }
  });
});
