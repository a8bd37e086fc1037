import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ZAuditList, ZInvitationCreated, ZMember, ZMemberList, ZResetLink, type TPersonRole } from "@/lib/contracts";
import { auditApi, ENDPOINTS, membersApi, type AnyEndpoint } from "@/lib/endpoints";
import { createKey } from "@/lib/server/auth/keys";
import { PERSON_SESSION_COOKIE } from "@/lib/server/auth/person-cookie";
import { PROJECT_COOKIE } from "@/lib/server/auth/person-session";
import {
  joinAsSignedIn,
  joinWithPassword,
  resetWithLink,
  setUpWithPassword,
  signInWithPassword,
  signOutEverywhere,
  switchProject,
} from "./sign-in";
import { signInWithKey } from "@/lib/server/auth/sign-in";
import { SESSION_COOKIE } from "@/lib/server/auth/sessions";
import { useDatabase, type Database } from "@/lib/server/db";
import { routeOf } from "@/lib/server/http/api";
import { testDatabases } from "@/lib/server/testing/databases";
import { createSetupLink } from "./members";
import { cookieJar } from "@/lib/server/testing/cookie-jar";

const ORIGIN = "http://127.0.0.1:3000";
const PEER = "x-cuescope-peer-people-test";
const PASSWORD = "correct horse battery";

/**
 * What each role may do, as the issue states it (a viewer reads, a member also comments, saves
 * views and drafts and replays, an admin also changes defaults, experiments, members and keys),
 * written out per endpoint rather than derived from the declarations. People send no telemetry.
 */
const TELEMETRY = new Set(["ingestEvents", "otlpExportTraces", "otlpExportLogs", "getExperimentAssignment"]);
const ADMIN_ONLY = new Set([
  "createAlertRule",
  "updateAlertRule",
  "deleteAlertRule",
  "listKeys",
  "createKey",
  "revokeKey",
  "makeDefaultCopyVersion",
  "makeDefaultPolicyVersion",
  "createExperiment",
  "updateExperiment",
  "startExperiment",
  "stopExperiment",
  "promoteExperimentArm",
  "createInvitation",
  "revokeInvitation",
  "changeMemberRole",
  "removeMember",
  "createResetLink",
]);
function allowed(role: TPersonRole, endpoint: AnyEndpoint): boolean {
  if (TELEMETRY.has(endpoint.id)) return false;
  if (ADMIN_ONLY.has(endpoint.id)) return role === "admin";
  if (endpoint.method === "GET") return true;
  return role !== "viewer";
}

/** A browser's request headers: same-origin, from `address`, with its cookies. */
function browser(cookies?: Map<string, string>, address = "198.51.100.7"): Headers {
  const headers = new Headers({ host: "127.0.0.1:3000", origin: ORIGIN, "sec-fetch-site": "same-origin", [PEER]: address });
  if (cookies && cookies.size > 0) headers.set("cookie", [...cookies].map(([n, v]) => `${n}=${encodeURIComponent(v)}`).join("; "));
  return headers;
}

function requestTo(endpoint: AnyEndpoint, headers: Headers): [Request, { params: Promise<Record<string, string>> }] {
  const params: Record<string, string> = {};
  const path = endpoint.segments.map((s: string | { param: string }) => (typeof s === "string" ? s : (params[s.param] = "x"))).join("/");
  return [new Request(`${ORIGIN}/${path}`, { method: endpoint.method, headers }), { params: Promise.resolve(params) }];
}

const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

describe.each(testDatabases())("people, roles and invitations on $name", (kind) => {
  let db: Database;
  /** The first administrator's browser. */
  let lead: Map<string, string>;
  let leadId: string;

  async function call(
    endpoint: AnyEndpoint,
    cookies: Map<string, string>,
    init: { body?: unknown; params?: Record<string, string>; path?: string } = {},
  ) {
    const headers = browser(cookies);
    if (init.body !== undefined) headers.set("content-type", "application/json");
    const path = init.path ?? endpoint.path.replace(/\{(\w+)\}/g, (_, name) => init.params![name]);
    return routeOf(endpoint)(
      new Request(`${ORIGIN}${path}`, {
        method: endpoint.method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      }),
      { params: Promise.resolve(init.params ?? {}) },
    );
  }

  async function invite(role: TPersonRole, cookies = lead) {
    const response = await call(membersApi.invite, cookies, { body: { role, note: `a ${role}` } });
    expect(response.status, await response.clone().text()).toBe(201);
    return ZInvitationCreated.parse(await response.json());
  }

  /** A new person who joined with an invitation of `role`; their browser's cookies. */
  async function newPerson(role: TPersonRole, email: string) {
    const { link } = await invite(role);
    const cookies = cookieJar();
    const joined = await joinWithPassword(db, tokenOf(link), { name: email.split("@")[0], email, password: PASSWORD }, browser(), cookies);
    expect(joined).toEqual({ ok: true, redirectTo: "/runs" });
    return cookies.values;
  }

  beforeAll(async () => {
    process.env.CUESCOPE_PEER_HEADER = PEER;
    db = await kind.open();
    useDatabase(db);
    await createKey(db, "team-a", "agent");
    await createKey(db, "team-b", "agent b");
  }, 60_000);
  afterAll(async () => {
    delete process.env.CUESCOPE_PEER_HEADER;
    await db?.close();
  });
  beforeEach(() => {
    (globalThis as { cuescopeAuthFailures?: unknown }).cuescopeAuthFailures = undefined;
  });

  it("sets up the first administrator once, with the link printed at start: admin of every project, a session, an audit entry", async () => {
    const first = await createSetupLink(db);
    const second = await createSetupLink(db);
    // Only the newest printed link works.
    const stale = await setUpWithPassword(
      db,
      tokenOf(first!.url),
      { name: "Lead", email: "lead@example.com", password: PASSWORD },
      browser(),
      cookieJar(),
    );
    expect(stale).toEqual({ ok: false, error: "This setup link is not known: use the newest link the server printed at start." });

    const short = await setUpWithPassword(
      db,
      tokenOf(second!.url),
      { name: "Lead", email: "lead@example.com", password: "short" },
      browser(),
      cookieJar(),
    );
    expect(short.ok).toBe(false);
    expect(!short.ok && short.error).toContain("password");

    const cookies = cookieJar();
    const made = await setUpWithPassword(
      db,
      tokenOf(second!.url),
      { name: "Lead", email: "Lead@Example.com", password: PASSWORD },
      browser(),
      cookies,
    );
    expect(made).toEqual({ ok: true, redirectTo: "/members" });
    expect(cookies.values.get(PERSON_SESSION_COOKIE)).toBeTruthy();
    lead = cookies.values;

    // Used once: a second claim is refused, and no further link is made now that someone has an account.
    const again = await setUpWithPassword(
      db,
      tokenOf(second!.url),
      { name: "Eve", email: "eve@example.com", password: PASSWORD },
      browser(),
      cookieJar(),
    );
    expect(again).toEqual({ ok: false, error: "This setup link was used already: sign in." });
    expect(await createSetupLink(db)).toBeNull();

    const members = ZMemberList.parse(await (await call(membersApi.list, lead)).json()).members;
    expect(members).toEqual([
      expect.objectContaining({ name: "Lead", email: "lead@example.com", role: "admin", signIn: ["password"], current: true }),
    ]);
    leadId = members[0].personId;
    const audit = ZAuditList.parse(await (await call(auditApi.list, lead, { path: "/api/v1/audit?action=member.setup" })).json()).entries;
    expect(audit.map((e) => [e.actor.kind, e.actor.personId, e.actor.name, e.after])).toEqual([
      ["person", leadId, "Lead", { role: "admin", email: "lead@example.com" }],
    ]);
  });

  it("lets each role call exactly the endpoints it allows; every other one answers 403 naming the role", async () => {
    const sessions: Record<TPersonRole, Map<string, string>> = {
      viewer: await newPerson("viewer", "viewer@example.com"),
      member: await newPerson("member", "member@example.com"),
      admin: lead,
    };
    const wrong: string[] = [];
    for (const endpoint of ENDPOINTS.filter((e) => e.auth !== "public")) {
      for (const role of ["viewer", "member", "admin"] as const) {
        const response = await routeOf(endpoint)(...requestTo(endpoint, browser(sessions[role])));
        // OpenTelemetry exports read no cookie at all (exporters send a key): 401 rather than 403.
        const refused = response.status === 403 || (response.status === 401 && TELEMETRY.has(endpoint.id));
        if (refused !== !allowed(role, endpoint)) wrong.push(`${role} ${endpoint.id}: ${response.status}`);
        if (response.status === 403) expect((await response.json()).error.message).toContain(`your role in team-a is ${role}`);
        else await response.body?.cancel();
      }
    }
    expect(wrong).toEqual([]);
  });

  it("keeps a member of one project out of another: they see only their own, and cannot open the other", async () => {
    const viewer = cookieJar();
    expect((await signInWithPassword(db, "viewer@example.com", PASSWORD, "/runs", browser(), viewer)).ok).toBe(true);
    const runs = await call(
      ENDPOINTS.find((e) => e.id === "listRuns")!,
      viewer.values,
    );
    expect(runs.status).toBe(200);
    const teamB = (await db.prisma.project.findUniqueOrThrow({ where: { name: "team-b" } })).id;
    expect(await switchProject(db, teamB, "/runs", browser(viewer.values), viewer)).toEqual({
      ok: false,
      error: "You are not a member of that project.",
    });
    // A project cookie set by hand opens nothing: membership is checked on every request.
    viewer.values.set(PROJECT_COOKIE, teamB);
    const members = ZMemberList.parse(await (await call(membersApi.list, viewer.values)).json());
    expect(members.members.map((m) => m.email).sort()).toEqual(["lead@example.com", "member@example.com", "viewer@example.com"]);
  });

  it("changes roles and removes members (never the last admin), each in the audit log; a change applies on the next request", async () => {
    const person = await newPerson("viewer", "rotating@example.com");
    const id = ZMemberList.parse(await (await call(membersApi.list, lead)).json()).members.find(
      (m) => m.email === "rotating@example.com",
    )!.personId;
    const saveView = ENDPOINTS.find((e) => e.id === "createSavedView")!;
    const view = { name: "mine", page: "runs", query: "status=completed" };
    expect((await call(saveView, person, { body: view })).status).toBe(403);

    const promoted = await call(membersApi.changeRole, lead, { params: { personId: id }, body: { role: "member" } });
    expect(ZMember.parse(await promoted.json())).toMatchObject({ role: "member", current: false });
    expect((await call(saveView, person, { body: view })).status).toBe(201);

    const demoteSelf = await call(membersApi.changeRole, lead, { params: { personId: leadId }, body: { role: "viewer" } });
    expect(demoteSelf.status).toBe(409);
    expect((await demoteSelf.json()).error.message).toContain("last admin");
    expect((await call(membersApi.remove, lead, { params: { personId: leadId } })).status).toBe(409);

    expect((await call(membersApi.remove, lead, { params: { personId: id } })).status).toBe(200);
    expect(
      (
        await call(
          ENDPOINTS.find((e) => e.id === "listRuns")!,
          person,
        )
      ).status,
    ).toBe(403);

    const audit = ZAuditList.parse(await (await call(auditApi.list, lead, { path: `/api/v1/audit?target=member&targetId=${id}` })).json());
    expect(audit.entries.map((e) => [e.action, e.actor.name, e.before, e.after])).toEqual([
      ["member.remove", "Lead", { role: "member", email: "rotating@example.com" }, null],
      ["member.role", "Lead", { role: "viewer" }, { role: "member" }],
      ["member.join", "rotating", null, expect.objectContaining({ role: "viewer", email: "rotating@example.com" })],
    ]);
  });

  it("rotates the session at sign-in, limits wrong passwords per address, and signs out everywhere", async () => {
    const first = cookieJar();
    expect((await signInWithPassword(db, "member@example.com", PASSWORD, "/runs", browser(), first)).ok).toBe(true);
    const before = first.values.get(PERSON_SESSION_COOKIE)!;
    const planted = new Map(first.values);
    // Signing in again in the same browser ends the session it had: a token known before is worthless after.
    expect((await signInWithPassword(db, "member@example.com", PASSWORD, "/runs", browser(first.values), first)).ok).toBe(true);
    expect(first.values.get(PERSON_SESSION_COOKIE)).not.toBe(before);
    expect((await call(membersApi.list, planted)).status).toBe(401);
    // A key's session in the same browser ends too.
    const keyed = cookieJar();
    const agentKey = await createKey(db, "team-a", "reader", { scope: "read" });
    expect((await signInWithKey(db, agentKey.secret, "/runs", browser(), keyed)).ok).toBe(true);
    const keySession = new Map(keyed.values);
    expect((await signInWithPassword(db, "member@example.com", PASSWORD, "/runs", browser(keyed.values), keyed)).ok).toBe(true);
    expect(keyed.values.has(SESSION_COOKIE)).toBe(false);
    expect((await call(membersApi.list, keySession)).status).toBe(401);

    for (let i = 0; i < 10; i++) {
      const wrong = await signInWithPassword(
        db,
        "member@example.com",
        "wrong password!",
        "/runs",
        browser(undefined, "192.0.2.9"),
        cookieJar(),
      );
      expect(wrong.ok).toBe(false);
    }
    const limited = await signInWithPassword(db, "member@example.com", PASSWORD, "/runs", browser(undefined, "192.0.2.9"), cookieJar());
    expect(!limited.ok && limited.error).toMatch(/^Too many wrong passwords from your address: wait \d+ s/);
    // Another address is not held back.
    expect((await signInWithPassword(db, "member@example.com", PASSWORD, "/runs", browser(undefined, "192.0.2.10"), cookieJar())).ok).toBe(
      true,
    );

    expect(await signOutEverywhere(db, browser(first.values), first)).toEqual({ ok: true });
    expect((await call(membersApi.list, keyed.values)).status).toBe(401);
    expect(first.values.has(PERSON_SESSION_COOKIE)).toBe(false);
  });

  it("resets a password with an admin-issued link: once, ending every session; the old password stops working", async () => {
    const session = cookieJar();
    expect((await signInWithPassword(db, "viewer@example.com", PASSWORD, "/runs", browser(), session)).ok).toBe(true);
    const viewerId = ZMemberList.parse(await (await call(membersApi.list, lead)).json()).members.find(
      (m) => m.email === "viewer@example.com",
    )!.personId;
    const issued = await call(membersApi.resetLink, lead, { params: { personId: viewerId } });
    expect(issued.status).toBe(201);
    const { link } = ZResetLink.parse(await issued.json());

    const reset = cookieJar();
    expect(await resetWithLink(db, tokenOf(link), "a brand new secret", browser(), reset)).toEqual({ ok: true, redirectTo: "/runs" });
    expect((await call(membersApi.list, session.values)).status).toBe(401);
    expect((await call(membersApi.list, reset.values)).status).toBe(200);
    expect((await signInWithPassword(db, "viewer@example.com", PASSWORD, "/runs", browser(), cookieJar())).ok).toBe(false);
    expect((await signInWithPassword(db, "viewer@example.com", "a brand new secret", "/runs", browser(), cookieJar())).ok).toBe(true);
    expect(await resetWithLink(db, tokenOf(link), "another new secret", browser(), cookieJar())).toEqual({
      ok: false,
      error: "This reset link was used already: ask an admin for a new one.",
    });
    const audit = ZAuditList.parse(await (await call(auditApi.list, lead, { path: "/api/v1/audit?action=member.resetLink" })).json());
    expect(audit.entries.map((e) => [e.target.name, e.actor.name])).toEqual([["viewer", "Lead"]]);
    expect(JSON.stringify(audit)).not.toContain(tokenOf(link));
  });

  it("accepts an invitation once; a signed-in person joins a second project; revoked and unknown links are refused", async () => {
    const { link, invitation } = await invite("viewer");
    const used = await joinWithPassword(
      db,
      tokenOf(link),
      { name: "Dup", email: "dup@example.com", password: PASSWORD },
      browser(),
      cookieJar(),
    );
    expect(used.ok).toBe(true);
    const again = await joinWithPassword(
      db,
      tokenOf(link),
      { name: "Dup2", email: "dup2@example.com", password: PASSWORD },
      browser(),
      cookieJar(),
    );
    expect(again).toEqual({ ok: false, error: "This invitation link was used already: ask Lead for a new one." });

    const revokedLink = await invite("member");
    const revoke = await call(membersApi.revokeInvitation, lead, { params: { id: revokedLink.invitation.id } });
    expect(revoke.status).toBe(200);
    const refused = await joinWithPassword(
      db,
      tokenOf(revokedLink.link),
      { name: "Late", email: "late@example.com", password: PASSWORD },
      browser(),
      cookieJar(),
    );
    expect(refused).toEqual({ ok: false, error: "This invitation link was revoked: ask Lead for a new one." });
    expect(await joinAsSignedIn(db, "not-a-token", browser(lead), cookieJar())).toEqual({
      ok: false,
      error: "This invitation link is not known: ask for a new one.",
    });

    // An admin key of a project made after the setup invites the lead, who joins it while signed in.
    const keyB = await createKey(db, "team-c", "admin c");
    const made = await routeOf(membersApi.invite)(
      new Request(`${ORIGIN}/api/v1/members/invitations`, {
        method: "POST",
        headers: { authorization: `Bearer ${keyB.secret}`, "content-type": "application/json", [PEER]: "203.0.113.1" },
        body: JSON.stringify({ role: "member" }),
      }),
    );
    const invitationB = ZInvitationCreated.parse(await made.json());
    const leadJar = cookieJar();
    for (const [name, value] of lead) leadJar.values.set(name, value);
    expect(await joinAsSignedIn(db, tokenOf(invitationB.link), browser(leadJar.values), leadJar)).toEqual({
      ok: true,
      redirectTo: "/runs",
    });
    const inB = ZMemberList.parse(await (await call(membersApi.list, leadJar.values)).json());
    expect(inB.members).toEqual([expect.objectContaining({ email: "lead@example.com", role: "member", current: true })]);
    expect(invitation.status).toBe("pending");

    // That key administers team-c only: it may not set the password of someone who also belongs to team-a.
    const leadInC = inB.members[0].personId;
    const reset = await routeOf(membersApi.resetLink)(
      new Request(`${ORIGIN}/api/v1/members/${leadInC}/reset-link`, {
        method: "POST",
        headers: { authorization: `Bearer ${keyB.secret}`, [PEER]: "203.0.113.1" },
      }),
      { params: Promise.resolve({ personId: leadInC }) },
    );
    expect(reset.status).toBe(403);
    expect((await reset.json()).error.message).toBe(
      "no reset link for Lead: they also belong to projects you do not administer: an admin of all of them issues the link",
    );
  });

  it("refuses an invitation link once its maker may no longer invite (demoted), and records a password reset's use", async () => {
    const deputy = await newPerson("admin", "deputy@example.com");
    const { link } = await invite("admin", deputy);
    const deputyId = ZMemberList.parse(await (await call(membersApi.list, lead)).json()).members.find(
      (m) => m.email === "deputy@example.com",
    )!.personId;
    expect((await call(membersApi.changeRole, lead, { params: { personId: deputyId }, body: { role: "viewer" } })).status).toBe(200);
    const late = await joinWithPassword(
      db,
      tokenOf(link),
      { name: "Crony", email: "crony@example.com", password: PASSWORD },
      browser(),
      cookieJar(),
    );
    expect(late).toEqual({
      ok: false,
      error: "deputy, who made this invitation link, may no longer invite: ask a current admin for a new one.",
    });

    const issued = ZResetLink.parse(await (await call(membersApi.resetLink, lead, { params: { personId: deputyId } })).json());
    expect((await resetWithLink(db, tokenOf(issued.link), "deputy's new passphrase", browser(), cookieJar())).ok).toBe(true);
    const audit = ZAuditList.parse(
      await (await call(auditApi.list, lead, { path: `/api/v1/audit?action=member.passwordReset&targetId=${deputyId}` })).json(),
    );
    expect(audit.entries.map((e) => [e.actor.kind, e.actor.name, e.after])).toEqual([["person", "deputy", { issuedBy: "Lead" }]]);
  });
});
