import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ZApiKey, ZApiKeyCreated, ZApiKeyList, ZAuditList, type TKeyScope } from "@/lib/contracts";
import { auditApi, ENDPOINTS, keysApi, type AnyEndpoint } from "@/lib/endpoints";
import { useDatabase, type Database } from "@/lib/server/db";
import { routeOf } from "@/lib/server/http/api";
import { testDatabases } from "@/lib/server/testing/databases";
import { authenticate, createKey } from "./keys";
import { createSession, SESSION_COOKIE } from "./sessions";
import { signInWithKey } from "./sign-in";
import { cookieJar } from "@/lib/server/testing/cookie-jar";

const ORIGIN = "http://127.0.0.1:3000";
const PEER = "x-cuescope-peer-scopes-test";

/**
 * The scopes as the product states them (README, "API keys"), written out per endpoint rather than
 * derived from the declarations: an ingest key sends telemetry and gets its experiment arm, and
 * nothing else; a read key reads everything but the key list and changes nothing; an admin key does
 * everything.
 */
const INGEST_ONLY = new Set(["ingestEvents", "otlpExportTraces", "otlpExportLogs", "getExperimentAssignment"]);
function allowed(scope: TKeyScope, endpoint: AnyEndpoint): boolean {
  if (scope === "admin") return true;
  if (scope === "ingest") return INGEST_ONLY.has(endpoint.id);
  return endpoint.method === "GET" && !INGEST_ONLY.has(endpoint.id) && endpoint.id !== "listKeys";
}

/** A request to `endpoint` with its path parameters filled with placeholders and no body. */
function requestTo(endpoint: AnyEndpoint, headers: Record<string, string>): [Request, { params: Promise<Record<string, string>> }] {
  const params: Record<string, string> = {};
  const path = endpoint.segments.map((s: string | { param: string }) => (typeof s === "string" ? s : (params[s.param] = "x"))).join("/");
  return [
    new Request(`${ORIGIN}/${path}`, { method: endpoint.method, headers: { host: "127.0.0.1:3000", ...headers } }),
    { params: Promise.resolve(params) },
  ];
}

describe.each(testDatabases())("API key scopes on $name", (kind) => {
  let db: Database;
  let admin: string;
  let adminId: string;
  let other: string;

  beforeAll(async () => {
    process.env.CUESCOPE_PEER_HEADER = PEER;
    db = await kind.open();
    useDatabase(db);
    const made = await createKey(db, "scopes", "lead");
    admin = made.secret;
    adminId = made.key.id;
    other = (await createKey(db, "scopes-other", "other")).secret;
  }, 60_000);
  afterAll(async () => {
    delete process.env.CUESCOPE_PEER_HEADER;
    await db?.close();
  });
  beforeEach(() => {
    (globalThis as { cuescopeAuthFailures?: unknown }).cuescopeAuthFailures = undefined;
  });

  const bearer = (secret: string) => ({ authorization: `Bearer ${secret}`, [PEER]: "203.0.113.5" });
  async function makeKey(label: string, scope: TKeyScope, by = admin) {
    const response = await routeOf(keysApi.create)(
      new Request(`${ORIGIN}/api/v1/keys`, {
        method: "POST",
        headers: { ...bearer(by), "content-type": "application/json" },
        body: JSON.stringify({ label, scope }),
      }),
    );
    expect(response.status, await response.clone().text()).toBe(201);
    return ZApiKeyCreated.parse(await response.json());
  }
  const listKeys = async (secret: string) =>
    ZApiKeyList.parse(await (await routeOf(keysApi.list)(new Request(`${ORIGIN}/api/v1/keys`, { headers: bearer(secret) }))).json()).keys;

  it("makes keys with a name and a scope, shows the secret once, and lists them without secrets", async () => {
    const made = await makeKey("collector", "ingest");
    expect(made.secret).toMatch(/^cs_/);
    expect(made.key).toMatchObject({
      label: "collector",
      scope: "ingest",
      prefix: made.secret.slice(0, 10),
      revokedAt: null,
      current: false,
    });
    const keys = await listKeys(admin);
    expect(JSON.stringify(keys)).not.toContain(made.secret);
    expect(keys.find((k) => k.id === made.key.id)).toMatchObject({ label: "collector", scope: "ingest" });
    // The admin's own key is marked, and it was used just now.
    const own = keys.find((k) => k.id === adminId)!;
    expect(own).toMatchObject({ current: true, scope: "admin" });
    expect(Date.parse(own.lastUsedAt!)).toBeGreaterThan(Date.now() - 120_000);
    expect(keys.find((k) => k.id === made.key.id)!.lastUsedAt).toBeNull();

    for (const [body, field] of [
      [{ label: "", scope: "read" }, "label"],
      [{ label: "x", scope: "owner" }, "scope"],
      [{ label: "x", scope: "read", secret: "cs_chosen" }, "secret"],
    ] as const) {
      const response = await routeOf(keysApi.create)(
        new Request(`${ORIGIN}/api/v1/keys`, {
          method: "POST",
          headers: { ...bearer(admin), "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toContain(field);
    }
  });

  it("lets each scope call exactly the endpoints it allows: every other one answers 403 naming the scope", async () => {
    const secrets: Record<TKeyScope, string> = {
      ingest: (await makeKey("ingest only", "ingest")).secret,
      read: (await makeKey("reader", "read")).secret,
      admin: (await makeKey("second admin", "admin")).secret,
    };
    const endpoints = ENDPOINTS.filter((e) => e.auth !== "public");
    expect(endpoints.length).toBeGreaterThan(40);
    const wrong: string[] = [];
    for (const endpoint of endpoints) {
      for (const scope of ["ingest", "read", "admin"] as const) {
        const response = await routeOf(endpoint)(...requestTo(endpoint, bearer(secrets[scope])));
        const refused = response.status === 403;
        if (refused !== !allowed(scope, endpoint)) wrong.push(`${scope} ${endpoint.id}: ${response.status}`);
        if (refused) expect((await response.json()).error.message).toContain(`this key's scope is ${scope}`);
        else await response.body?.cancel();
      }
    }
    expect(wrong).toEqual([]);
  });

  it("revokes a key of the project (its sessions end with it), once in the audit log; another project's key is a 404", async () => {
    const reader = await makeKey("to revoke", "read");
    const { token } = await createSession(db, await authenticate(db, `Bearer ${reader.secret}`));
    const revoke = (id: string, secret = admin) =>
      routeOf(keysApi.revoke)(new Request(`${ORIGIN}/api/v1/keys/${id}/revoke`, { method: "POST", headers: bearer(secret) }), {
        params: Promise.resolve({ id }),
      });
    const first = ZApiKey.parse(await (await revoke(reader.key.id)).json());
    expect(Date.parse(first.revokedAt!)).not.toBeNaN();
    expect((await revoke(reader.key.id)).status).toBe(200);
    const list = () => new Request(`${ORIGIN}/api/v1/runs`, { headers: bearer(reader.secret) });
    expect((await routeOf(ENDPOINTS.find((e) => e.id === "listRuns")!)(list())).status).toBe(401);
    const viaSession = new Request(`${ORIGIN}/api/v1/runs`, { headers: { cookie: `${SESSION_COOKIE}=${token}` } });
    expect((await routeOf(ENDPOINTS.find((e) => e.id === "listRuns")!)(viaSession)).status).toBe(401);

    const audit = ZAuditList.parse(
      await (
        await routeOf(auditApi.list)(
          new Request(`${ORIGIN}/api/v1/audit?action=key.revoke&targetId=${reader.key.id}`, { headers: bearer(admin) }),
        )
      ).json(),
    ).entries;
    expect(audit.map((e) => [e.actor.name, e.actor.kind, e.address, e.before])).toEqual([
      ["lead", "key", "203.0.113.5", { revokedAt: null }],
    ]);

    const outsider = (await listKeys(other))[0];
    expect((await revoke(outsider.id)).status).toBe(404);
    expect((await listKeys(other))[0].revokedAt).toBeNull();
  });

  it("lets a read key sign in and read but not change anything; an ingest key cannot sign in (and is not counted as a wrong guess)", async () => {
    const reader = await makeKey("viewer", "read");
    const cookies = cookieJar();
    const headers = new Headers({ host: "127.0.0.1:3000", origin: ORIGIN, "sec-fetch-site": "same-origin", [PEER]: "127.0.0.1" });
    expect((await signInWithKey(db, reader.secret, "/runs", headers, cookies)).ok).toBe(true);
    const session = { cookie: `${SESSION_COOKIE}=${cookies.values.get(SESSION_COOKIE)}`, origin: ORIGIN, "sec-fetch-site": "same-origin" };
    const listVersions = routeOf(ENDPOINTS.find((e) => e.id === "listCopyVersions")!);
    expect((await listVersions(new Request(`${ORIGIN}/api/v1/copy-versions`, { headers: session }))).status).toBe(200);
    const save = await routeOf(ENDPOINTS.find((e) => e.id === "createCopyVersion")!)(
      new Request(`${ORIGIN}/api/v1/copy-versions`, {
        method: "POST",
        headers: { ...session, host: "127.0.0.1:3000", "content-type": "application/json" },
        body: JSON.stringify({ name: "not allowed", copy: {} }),
      }),
    );
    expect(save.status).toBe(403);
    expect((await save.json()).error.message).toBe(
      "this key's scope is read (reads everything, changes nothing): changing data needs an admin key",
    );

    const ingest = await makeKey("agent", "ingest");
    for (let i = 0; i < 12; i++) {
      const refused = await signInWithKey(db, ingest.secret, "/runs", headers, cookieJar());
      expect(refused).toEqual({
        ok: false,
        error:
          "That key cannot sign in: this key's scope is ingest (sends telemetry only: ingest, OpenTelemetry, experiment assignments): sign in with a read or admin key.",
      });
    }
    // Not counted as wrong keys: the reader still signs in from the same address.
    expect((await signInWithKey(db, reader.secret, "/runs", headers, cookieJar())).ok).toBe(true);
  });
});
