import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext, type BrowserContext } from "@playwright/test";
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
    await page.getByRole("button", { name: "Sign in" }).click();
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
      expect((await answer).status()).toBeGreaterThanOrEqual(400);
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
      await answer;
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
