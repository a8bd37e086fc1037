import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { copyVersionsApi } from "@/lib/endpoints";
import { useDatabase, type Database } from "@/lib/server/db";
import { defaultCopyVersionRoute } from "@/lib/server/http/version-routes";
import { testDatabases } from "@/lib/server/testing/databases";
import { createCopyVersion } from "@/lib/server/versions/versions";
import { clientAddress, isLoopback } from "./client-address";
import { authenticate, createKey, revokeKey, type Caller } from "./keys";
import { AUTH_FAILURE_BURST, authFailureLimiter } from "./rate-limit";
import { authenticateSession, createSession, hashToken, revokeSession, SESSION_COOKIE, SESSION_DAYS } from "./sessions";
import { demoRefusal, signInToDemo, signInWithKey, signOut, type CookieJar } from "./sign-in";
import { cookieJar } from "@/lib/server/testing/cookie-jar";

const ORIGIN = "http://127.0.0.1:3000";
const PEER = "x-cuescope-peer-test";

function browserHeaders(extra: Record<string, string> = {}, peer = "127.0.0.1"): Headers {
  return new Headers({ host: "127.0.0.1:3000", origin: ORIGIN, "sec-fetch-site": "same-origin", [PEER]: peer, ...extra });
}

describe.each(testDatabases())("sessions and API authentication on $name", (kind) => {
  let db: Database;
  let secret: string;
  let caller: Caller;
  let versionA: string;
  let versionB: string;

  beforeAll(async () => {
    process.env.CUESCOPE_PEER_HEADER = PEER;
    db = await kind.open();
    useDatabase(db);
    secret = (await createKey(db, "sessions", "agent")).secret;
    caller = await authenticate(db, `Bearer ${secret}`);
    versionA = (await createCopyVersion(db, caller, { name: "a", copy: {}, makeDefault: true })).id;
    versionB = (await createCopyVersion(db, caller, { name: "b", copy: {} })).id;
  }, 60_000);
  afterAll(async () => {
    delete process.env.CUESCOPE_PEER_HEADER;
    await db?.close();
  });
  beforeEach(() => {
    (globalThis as { cuescopeAuthFailures?: unknown }).cuescopeAuthFailures = undefined;
  });

  const defaultCopy = async () => (await db.prisma.project.findUniqueOrThrow({ where: { id: caller.projectId } })).defaultCopyVersionId;
  const makeDefault = (id: string, headers: Record<string, string>) =>
    defaultCopyVersionRoute(new Request(`${ORIGIN}/api/v1/copy-versions/${id}/default`, { method: "POST", headers }), {
      params: Promise.resolve({ id }),
    });

  it("stores only the token's sha256, lasts a fixed 7 days, and ends at sign-out", async () => {
    const now = new Date("2026-12-01T10:00:00Z");
    const { token, expiresAt } = await createSession(db, caller, { now });
    expect(Buffer.from(token, "base64url").length).toBe(32);
    expect(expiresAt.getTime() - now.getTime()).toBe(SESSION_DAYS * 86_400_000);
    const row = await db.prisma.session.findUniqueOrThrow({ where: { tokenHash: hashToken(token) } });
    expect(JSON.stringify(row)).not.toContain(token);

    expect((await authenticateSession(db, token, new Date("2026-12-08T09:59:59Z"))).project).toBe("sessions");
    await expect(authenticateSession(db, token, new Date("2026-12-08T10:00:00Z"))).rejects.toThrow(/expired/);
    await revokeSession(db, token);
    await expect(authenticateSession(db, token, now)).rejects.toThrow(/signed out/);
  });

  it("dies with the key it was opened with", async () => {
    const other = await createKey(db, "sessions", "to revoke");
    const { token } = await createSession(db, await authenticate(db, `Bearer ${other.secret}`));
    expect((await authenticateSession(db, token)).key?.label).toBe("to revoke");
    await revokeKey(db, other.key.id);
    await expect(authenticateSession(db, token)).rejects.toThrow(/key this session was opened with was revoked/);
  });

  it("sign-in sets an HttpOnly, SameSite=Lax cookie holding a session token (Secure behind https), sign-out revokes it", async () => {
    const cookies = cookieJar();
    const result = await signInWithKey(db, secret, "/\\evil.com", browserHeaders(), cookies);
    expect(result).toEqual({ ok: true, redirectTo: "/runs" });
    const token = cookies.values.get(SESSION_COOKIE)!;
    expect(token).not.toBe(secret);
    expect(cookies.options.get(SESSION_COOKIE)).toMatchObject({ httpOnly: true, sameSite: "lax", secure: false, path: "/" });

    process.env.CUESCOPE_TRUST_PROXY = "1";
    try {
      const https = cookieJar();
      const headers = browserHeaders({ "x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.9", origin: "https://127.0.0.1:3000" });
      expect((await signInWithKey(db, secret, "/copy", headers, https)).ok).toBe(true);
      expect(https.options.get(SESSION_COOKIE)).toMatchObject({ secure: true });
    } finally {
      delete process.env.CUESCOPE_TRUST_PROXY;
    }
    // Without a trusted proxy a client-sent X-Forwarded-Proto changes nothing.
    const spoofed = cookieJar();
    await signInWithKey(db, secret, "/runs", browserHeaders({ "x-forwarded-proto": "https" }), spoofed);
    expect(spoofed.options.get(SESSION_COOKIE)).toMatchObject({ secure: false });

    const get = () => new Request(`${ORIGIN}/api/v1/copy-versions`, { headers: { cookie: `${SESSION_COOKIE}=${token}` } });
    const listCopyVersionsRoute = (await import("@/lib/server/http/api")).routeOf(copyVersionsApi.list);
    expect((await listCopyVersionsRoute(get())).status).toBe(200);
    expect(await signOut(db, browserHeaders(), cookies)).toEqual({ ok: true });
    expect(cookies.values.has(SESSION_COOKIE)).toBe(false);
    const after = await listCopyVersionsRoute(get());
    expect(after.status).toBe(401);
    expect((await after.json()).error.message).toMatch(/signed out/);
    // The API key itself still works.
    expect(
      (await listCopyVersionsRoute(new Request(`${ORIGIN}/api/v1/copy-versions`, { headers: { authorization: `Bearer ${secret}` } })))
        .status,
    ).toBe(200);
  });

  it("DNS rebinding: under a Host that is neither loopback nor allowed, no sign-in, no demo, no cookie session; keys still work", async () => {
    const listCopyVersionsRoute = (await import("@/lib/server/http/api")).routeOf(copyVersionsApi.list);
    const rebound = { host: "rebind.example:3000", origin: "http://rebind.example:3000", "sec-fetch-site": "same-origin" };
    for (const signIn of [
      (cookies: CookieJar) => signInWithKey(db, secret, "/runs", browserHeaders(rebound), cookies),
      (cookies: CookieJar) => signInToDemo(db, "/runs", browserHeaders(rebound), cookies),
    ]) {
      const cookies = cookieJar();
      const result = await signIn(cookies);
      expect(result).toMatchObject({
        ok: false,
        error: expect.stringMatching(/"rebind\.example:3000".*CUESCOPE_ALLOWED_HOSTS=rebind\.example/),
      });
      expect(cookies.values.size).toBe(0);
    }
    // A session opened on this server's own name is not accepted under the rebound one (GET or POST) …
    const { token } = await createSession(db, caller);
    const cookie = `${SESSION_COOKIE}=${token}`;
    const withCookie = (host: string) => new Request(`${ORIGIN}/api/v1/copy-versions`, { headers: { host, cookie } });
    const refused = await listCopyVersionsRoute(withCookie("rebind.example:3000"));
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toMatchObject({
      code: "forbidden",
      message: expect.stringMatching(/rebind\.example.*CUESCOPE_ALLOWED_HOSTS/),
    });
    expect((await makeDefault(versionB, { ...rebound, cookie })).status).toBe(403);
    expect(await defaultCopy()).toBe(versionA);
    expect((await listCopyVersionsRoute(withCookie("localhost:3000"))).status).toBe(200);
    // … while a key works under any Host.
    const keyed = new Request(`${ORIGIN}/api/v1/copy-versions`, {
      headers: { host: "rebind.example:3000", authorization: `bearer ${secret}` },
    });
    expect((await listCopyVersionsRoute(keyed)).status).toBe(200);
    // A host the operator names is this server's.
    process.env.CUESCOPE_ALLOWED_HOSTS = "rebind.example";
    try {
      expect((await listCopyVersionsRoute(withCookie("rebind.example:3000"))).status).toBe(200);
      const cookies = cookieJar();
      expect((await signInWithKey(db, secret, "/runs", browserHeaders(rebound), cookies)).ok).toBe(true);
      expect(cookies.values.has(SESSION_COOKIE)).toBe(true);
    } finally {
      delete process.env.CUESCOPE_ALLOWED_HOSTS;
    }
  });

  it("no longer accepts the old cookie that held the raw API key", async () => {
    const listCopyVersionsRoute = (await import("@/lib/server/http/api")).routeOf(copyVersionsApi.list);
    const response = await listCopyVersionsRoute(
      new Request(`${ORIGIN}/api/v1/copy-versions`, { headers: { cookie: `cuescope_key=${secret}` } }),
    );
    expect(response.status).toBe(401);
  });

  it("CSRF: a cookie-authenticated POST from another origin is refused with 403 and changes nothing", async () => {
    const { token } = await createSession(db, caller);
    const cookie = `${SESSION_COOKIE}=${token}`;
    expect(await defaultCopy()).toBe(versionA);
    for (const headers of <Record<string, string>[]>[
      { cookie, origin: "http://127.0.0.1:3001", "sec-fetch-site": "same-site" }, // another port: same site, other origin
      { cookie, origin: "http://127.0.0.1:3001" }, // no Sec-Fetch-Site: Origin decides
      { cookie, origin: "null" },
      { cookie, "sec-fetch-site": "cross-site" },
      { cookie }, // says nothing about where it comes from
    ]) {
      const response = await makeDefault(versionB, { host: "127.0.0.1:3000", ...headers });
      expect(response.status, JSON.stringify(headers)).toBe(403);
      const body = await response.json();
      expect(body.error.code).toBe("forbidden");
      expect(body.error.message).toMatch(/cross-origin request refused/);
    }
    expect(await defaultCopy()).toBe(versionA);

    // From the app's own pages it works (Sec-Fetch-Site, or Origin equal to the request's own origin) …
    expect((await makeDefault(versionB, { host: "127.0.0.1:3000", cookie, "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect(await defaultCopy()).toBe(versionB);
    expect((await makeDefault(versionA, { host: "127.0.0.1:3000", cookie, origin: ORIGIN })).status).toBe(200);
    expect(await defaultCopy()).toBe(versionA);
    // … and Bearer requests are not affected.
    expect((await makeDefault(versionB, { authorization: `Bearer ${secret}`, origin: "http://evil.test" })).status).toBe(200);
    expect(await defaultCopy()).toBe(versionB);
    await makeDefault(versionA, { authorization: `Bearer ${secret}` });
  });

  it("rate limits wrong keys per client address: 429 with Retry-After after the burst; valid keys elsewhere and later still work", async () => {
    const listCopyVersionsRoute = (await import("@/lib/server/http/api")).routeOf(copyVersionsApi.list);
    const call = (key: string, peer: string) =>
      listCopyVersionsRoute(new Request(`${ORIGIN}/api/v1/copy-versions`, { headers: { authorization: `Bearer ${key}`, [PEER]: peer } }));
    for (let i = 0; i < AUTH_FAILURE_BURST; i++) expect((await call("cs_wrong", "10.9.9.9")).status).toBe(401);
    const limited = await call("cs_wrong", "10.9.9.9");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await limited.json()).error.message).toMatch(/too many failed API key checks/);
    // A client-sent X-Forwarded-For does not move the attacker to another bucket.
    const spoofed = await listCopyVersionsRoute(
      new Request(`${ORIGIN}/api/v1/copy-versions`, {
        headers: { authorization: "Bearer cs_wrong", [PEER]: "10.9.9.9", "x-forwarded-for": "10.1.1.1" },
      }),
    );
    expect(spoofed.status).toBe(429);
    // Another address is unaffected, valid key or not.
    expect((await call(secret, "10.8.8.8")).status).toBe(200);
    expect((await call("cs_wrong", "10.8.8.8")).status).toBe(401);
    // The blocked address, while blocked, is refused before a key is looked at — unless that very key
    // was accepted recently (a good agent sharing the address keeps working; a guess never is) …
    const fresh = (await createKey(db, caller.project, "never used yet")).secret;
    expect((await call(fresh, "10.9.9.9")).status).toBe(429);
    expect((await call(secret, "10.9.9.9")).status).toBe(200);
    expect((await call("cs_wrong", "10.9.9.9")).status).toBe(429);
    // The scheme is case-insensitive (RFC 9110 section 11.1): the same key sent as `bearer …` or `BEARER …` is the same recently good key.
    const sent = (authorization: string) =>
      listCopyVersionsRoute(new Request(`${ORIGIN}/api/v1/copy-versions`, { headers: { authorization, [PEER]: "10.9.9.9" } }));
    expect((await sent(`bearer ${secret}`)).status).toBe(200);
    expect((await sent(`BEARER  ${secret}`)).status).toBe(200);
    expect((await sent("bearer cs_wrong")).status).toBe(429);
    // … and after the wait it may try again.
    const limiter = authFailureLimiter() as unknown as { buckets: Map<string, { updatedAt: number }> };
    for (const bucket of limiter.buckets.values()) bucket.updatedAt -= 7_000; // as if 7 s had passed
    expect((await call(fresh, "10.9.9.9")).status).toBe(200);
    // Successful requests never count.
    for (let i = 0; i < 3 * AUTH_FAILURE_BURST; i++) expect((await call(secret, "10.7.7.7")).status).toBe(200);
  });

  it("rate limits failed sign-ins with a clear message", async () => {
    const headers = browserHeaders({}, "10.6.6.6");
    let last = "";
    for (let i = 0; i < AUTH_FAILURE_BURST; i++) {
      const result = await signInWithKey(db, "cs_wrong", "/runs", headers, cookieJar());
      expect(result.ok).toBe(false);
      if (!result.ok) last = result.error;
    }
    expect(last).toMatch(/not accepted: unknown API key.*Too many wrong keys from your address: wait \d+ s/);
    const refused = await signInWithKey(db, secret, "/runs", headers, cookieJar());
    expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/^Too many wrong keys/) });
    expect((await signInWithKey(db, secret, "/runs", browserHeaders({}, "127.0.0.1"), cookieJar())).ok).toBe(true);
  });

  it("sign-in forms posted from another origin are refused", async () => {
    const result = await signInWithKey(
      db,
      secret,
      "/runs",
      browserHeaders({ origin: "http://127.0.0.1:3001", "sec-fetch-site": "same-site" }),
      cookieJar(),
    );
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/cross-origin request refused/) });
    // Next.js's own server-action check lets a request without Origin through; this one does not.
    const silent = await signInWithKey(db, secret, "/runs", new Headers({ host: "127.0.0.1:3000", [PEER]: "127.0.0.1" }), cookieJar());
    expect(silent).toMatchObject({ ok: false, error: expect.stringMatching(/must say where it comes from/) });
  });
});

describe("client address and the demo button", () => {
  beforeAll(() => {
    process.env.CUESCOPE_PEER_HEADER = PEER;
  });
  afterAll(() => {
    delete process.env.CUESCOPE_PEER_HEADER;
    delete process.env.CUESCOPE_TRUST_PROXY;
  });

  it.each([
    ["127.0.0.1", true],
    ["127.8.9.10", true],
    ["::1", true],
    ["::ffff:127.0.0.1", true],
    ["10.231.7.2", false],
    ["::ffff:10.0.0.1", false],
    ["192.168.1.5", false],
    ["unknown", false],
  ])("%s is loopback: %s", (address, expected) => {
    expect(isLoopback(address)).toBe(expected);
  });

  it("trusts only the server's private peer header: a client-sent X-Forwarded-For or peer header does not help", () => {
    expect(demoRefusal(new Headers({ [PEER]: "127.0.0.1" }))).toBeNull();
    expect(demoRefusal(new Headers({ [PEER]: "10.231.7.2", "x-forwarded-for": "127.0.0.1", "x-real-ip": "127.0.0.1" }))).toMatch(
      /only from the machine that runs Cuescope.*10\.231\.7\.2.*Sign in with a project API key/,
    );
    // A loopback peer that arrived with forwarding headers is a proxy on this machine (or a pretender): refused.
    expect(demoRefusal(new Headers({ [PEER]: "127.0.0.1", [`${PEER}-forwarded`]: "1", "x-forwarded-for": "203.0.113.5" }))).toMatch(
      /came through a proxy/,
    );
    delete process.env.CUESCOPE_PEER_HEADER;
    try {
      // Not under scripts/server.mjs: the peer is unknown, whatever the headers say.
      expect(clientAddress(new Headers({ [PEER]: "127.0.0.1", "x-forwarded-for": "127.0.0.1" }))).toBe("unknown");
      expect(demoRefusal(new Headers({ [PEER]: "127.0.0.1" }))).toMatch(/cannot tell where your connection comes from/);
    } finally {
      process.env.CUESCOPE_PEER_HEADER = PEER;
    }
  });

  it("behind a proxy, trusts X-Forwarded-For only with CUESCOPE_TRUST_PROXY, counting hops from the right", () => {
    const headers = new Headers({ [PEER]: "127.0.0.1", "x-forwarded-for": "127.0.0.1, 198.51.100.7" });
    expect(clientAddress(headers)).toBe("127.0.0.1");
    process.env.CUESCOPE_TRUST_PROXY = "1";
    expect(clientAddress(headers)).toBe("198.51.100.7"); // the client-sent "127.0.0.1" on the left is ignored
    expect(demoRefusal(headers)).toMatch(/198\.51\.100\.7 \(as forwarded by the trusted proxy\)/);
    process.env.CUESCOPE_TRUST_PROXY = "2";
    expect(clientAddress(headers)).toBe("127.0.0.1");
    delete process.env.CUESCOPE_TRUST_PROXY;
  });
});
