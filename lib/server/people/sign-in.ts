import { APIError } from "better-auth/api";
import { ZNewAccount, ZPassword } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import { DomainError, parseWith } from "@/lib/server/errors";
import { acceptInvitation, claimSetup, readInvitation, readResetLink, resetPassword, setupLinkProblem } from "./members";
import { authHeaders, endBrowserSessions } from "@/lib/server/auth/browser-sessions";
import { clientAddress, knownAddress, type HeaderSource } from "@/lib/server/auth/client-address";
import { cookiesToSet, peopleAuth, ssoSettings, SSO_PROVIDER_ID } from "@/lib/server/auth/people-auth";
import { personProjects, PROJECT_COOKIE, sessionPerson } from "@/lib/server/auth/person-session";
import { authFailureLimiter } from "@/lib/server/auth/rate-limit";
import { safeNextPath } from "@/lib/server/auth/redirect";
import { appOrigin, sameOriginOrError, type CookieJar, type SignInResult } from "@/lib/server/auth/sign-in";

/**
 * How people sign in, join and leave (issue 25), for the server actions of lib/server/people/actions.ts:
 * each checks the request's origin, ends the browser's previous session before opening a new one
 * (rotation), and counts wrong passwords and unknown links against the client address
 * (lib/server/auth/rate-limit.ts). Accounts, passwords and sessions are better-auth's.
 */

function setCookies(jar: CookieJar, headers: Headers): void {
  for (const cookie of cookiesToSet(headers)) jar.set(cookie.name, cookie.value, cookie.options);
}

function tooMany(seconds: number, what: string): string {
  const limiter = authFailureLimiter();
  return `Too many ${what} from your address: wait ${seconds} s before trying again (${limiter.burst} tries at once, then one every ${limiter.refillSeconds} s).`;
}

/** Opens a person's session with their email and password; the browser's previous session ends first. */
async function openPasswordSession(db: Database, email: string, password: string, headers: HeaderSource, jar: CookieJar): Promise<void> {
  const auth = await peopleAuth(db);
  await endBrowserSessions(db, headers, jar);
  const answer = await auth.api.signInEmail({
    body: { email, password, rememberMe: true },
    headers: authHeaders(headers),
    returnHeaders: true,
  });
  setCookies(jar, answer.headers);
}

/** Sign-in with an email and a password; a wrong pair counts against the client address. */
export async function signInWithPassword(
  db: Database,
  email: string,
  password: string,
  next: unknown,
  headers: HeaderSource,
  jar: CookieJar,
): Promise<SignInResult> {
  const refused = sameOriginOrError(headers);
  if (refused) return { ok: false, error: refused };
  if (!email.trim() || !password) return { ok: false, error: "Enter your email and your password." };
  const address = clientAddress(headers);
  const limiter = authFailureLimiter();
  const wait = limiter.retryAfter(address);
  if (wait > 0) return { ok: false, error: tooMany(wait, "wrong passwords") };
  try {
    await openPasswordSession(db, email.trim().toLowerCase(), password, headers, jar);
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    const after = limiter.fail(address);
    return { ok: false, error: `Wrong email or password.${after > 0 ? ` ${tooMany(after, "wrong passwords")}` : ""}` };
  }
  return { ok: true, redirectTo: safeNextPath(next, appOrigin(headers)) };
}

/**
 * Whether single sign-on may make an account for a person who has none: only on the way back to a
 * setup link or an invitation link that can be used now (decided here, never by the form).
 */
async function mayMakeAccount(db: Database, path: string): Promise<boolean> {
  const url = new URL(path, "http://cuescope.invalid");
  const token = url.searchParams.get("token") ?? "";
  if (url.pathname === "/setup") return (await setupLinkProblem(db, token)) === null;
  if (url.pathname === "/invite") return (await readInvitation(db, token)).ok;
  return false;
}

/**
 * Starts single sign-on: the address of the provider's sign-in page to send the browser to. It
 * comes back to `returnTo` (a path of this app) signed in. A person without an account gets one
 * only on the way back to a usable setup or invitation link (`mayMakeAccount`).
 */
export async function startSingleSignOn(db: Database, returnTo: unknown, headers: HeaderSource, jar: CookieJar): Promise<SignInResult> {
  const refused = sameOriginOrError(headers);
  if (refused) return { ok: false, error: refused };
  if (!ssoSettings()) return { ok: false, error: "Single sign-on is not set up on this server (see README, Team setup)." };
  const auth = await peopleAuth(db);
  await endBrowserSessions(db, headers, jar);
  const path = safeNextPath(returnTo, appOrigin(headers));
  const failed = `/login?sso=failed&next=${encodeURIComponent(path)}`;
  try {
    const answer = await auth.api.signInSocial({
      body: {
        provider: SSO_PROVIDER_ID,
        callbackURL: path,
        errorCallbackURL: failed,
        requestSignUp: await mayMakeAccount(db, path),
        disableRedirect: true,
      },
      headers: authHeaders(headers),
      returnHeaders: true,
    });
    setCookies(jar, answer.headers);
    if (!answer.response.url) return { ok: false, error: "The single sign-on provider did not give a sign-in address." };
    return { ok: true, redirectTo: answer.response.url };
  } catch (error) {
    if (error instanceof APIError) return { ok: false, error: `Single sign-on could not start: ${error.message}.` };
    // The provider is down or its discovery document is unreadable.
    return { ok: false, error: `Single sign-on could not start: the provider did not answer (${(error as Error).message}).` };
  }
}

type AccountForm = { name: unknown; email: unknown; password: unknown };

/** Runs a form's steps: a DomainError (a refused link, a bad field, an email taken) is the form's message. */
async function formSteps(steps: () => Promise<SignInResult>): Promise<SignInResult> {
  try {
    return await steps();
  } catch (error) {
    if (error instanceof DomainError) return { ok: false, error: error.message };
    throw error;
  }
}

/** The address to record for the audit log, or null when this server cannot tell it. */
function auditAddress(headers: HeaderSource): string | null {
  return knownAddress(clientAddress(headers)) ?? null;
}

/** The signed-in person of a form's request; throws the form's message when the session is gone. */
async function formPerson(db: Database, headers: HeaderSource) {
  const person = await sessionPerson(db, authHeaders(headers));
  if (!person) throw new DomainError("unauthorized", "Your session ended: sign in again.");
  return person;
}

/** A new account (checked by the contract, the reason naming the field); refused when the email has one. */
async function createAccount(db: Database, form: AccountForm): Promise<{ id: string; email: string; password: string }> {
  const account = parseWith(ZNewAccount, form, "form");
  const auth = await peopleAuth(db);
  try {
    const made = await auth.api.signUpEmail({ body: account });
    return { id: made.user.id, email: account.email, password: account.password };
  } catch (error) {
    if (error instanceof APIError && /exist/i.test(error.message)) {
      throw new DomainError(
        "conflict",
        "No account was made with this email: if you have one, sign in with it, then open this link again.",
      );
    }
    throw error;
  }
}

/** Refuses a link that cannot be used (over the wrong-link limiter, or the link's own problem; a bad link counts against the address). */
async function assertLink(headers: HeaderSource, problemOf: () => Promise<string | null>): Promise<void> {
  const address = clientAddress(headers);
  const limiter = authFailureLimiter();
  const wait = limiter.retryAfter(address);
  if (wait > 0) throw new DomainError("rate_limited", tooMany(wait, "unknown links"));
  const problem = await problemOf();
  if (problem) {
    limiter.fail(address);
    throw new DomainError("forbidden", problem);
  }
}

const invitationProblem = (db: Database, token: string) => async () => {
  const read = await readInvitation(db, token);
  return read.ok ? null : read.problem;
};

/** The first administrator: a new account from the setup page's form, made admin of every project. */
export async function setUpWithPassword(db: Database, token: string, form: AccountForm, headers: HeaderSource, jar: CookieJar) {
  const refused = sameOriginOrError(headers);
  if (refused) return { ok: false, error: refused } satisfies SignInResult;
  return formSteps(async () => {
    await assertLink(headers, () => setupLinkProblem(db, token));
    const person = await createAccount(db, form);
    await claimSetup(db, token, person.id, auditAddress(headers));
    await openPasswordSession(db, person.email, person.password, headers, jar);
    return { ok: true, redirectTo: "/members" };
  });
}

/** The first administrator, signed in already (back from single sign-on): made admin of every project. */
export async function setUpAsSignedIn(db: Database, token: string, headers: HeaderSource): Promise<SignInResult> {
  const refused = sameOriginOrError(headers);
  if (refused) return { ok: false, error: refused };
  return formSteps(async () => {
    await assertLink(headers, () => setupLinkProblem(db, token));
    await claimSetup(db, token, (await formPerson(db, headers)).id, auditAddress(headers));
    return { ok: true, redirectTo: "/members" };
  });
}

/** A new account from an invitation's form; it joins the invitation's project and is signed in. */
export async function joinWithPassword(db: Database, token: string, form: AccountForm, headers: HeaderSource, jar: CookieJar) {
  const refused = sameOriginOrError(headers);
  if (refused) return { ok: false, error: refused } satisfies SignInResult;
  return formSteps(async () => {
    await assertLink(headers, invitationProblem(db, token));
    const person = await createAccount(db, form);
    const joined = await acceptInvitation(db, token, person.id, auditAddress(headers));
    await openPasswordSession(db, person.email, person.password, headers, jar);
    jar.set(PROJECT_COOKIE, joined.projectId, projectCookieOptions());
    return { ok: true, redirectTo: "/runs" };
  });
}

/** A signed-in person accepts an invitation: they join its project, which opens. */
export async function joinAsSignedIn(db: Database, token: string, headers: HeaderSource, jar: CookieJar): Promise<SignInResult> {
  const refused = sameOriginOrError(headers);
  if (refused) return { ok: false, error: refused };
  return formSteps(async () => {
    await assertLink(headers, invitationProblem(db, token));
    const joined = await acceptInvitation(db, token, (await formPerson(db, headers)).id, auditAddress(headers));
    jar.set(PROJECT_COOKIE, joined.projectId, projectCookieOptions());
    return { ok: true, redirectTo: "/runs" };
  });
}

/** Sets a new password with an admin-issued reset link; every session of the person ends, then they sign in. */
export async function resetWithLink(db: Database, token: string, password: unknown, headers: HeaderSource, jar: CookieJar) {
  const refused = sameOriginOrError(headers);
  if (refused) return { ok: false, error: refused } satisfies SignInResult;
  return formSteps(async () => {
    const checked = parseWith(ZPassword, password, "password");
    await assertLink(headers, async () => {
      const read = await readResetLink(db, token);
      return read.ok ? null : read.problem;
    });
    const { email } = await resetPassword(db, token, checked, auditAddress(headers));
    await openPasswordSession(db, email, checked, headers, jar);
    return { ok: true, redirectTo: "/runs" };
  });
}

/** Opens another of the person's projects (the project cookie; membership is checked on every request). */
export async function switchProject(db: Database, projectId: string, next: unknown, headers: HeaderSource, jar: CookieJar) {
  const refused = sameOriginOrError(headers);
  if (refused) return { ok: false, error: refused } satisfies SignInResult;
  return formSteps(async () => {
    const projects = await personProjects(db, (await formPerson(db, headers)).id);
    if (!projects.some((p) => p.projectId === projectId)) throw new DomainError("forbidden", "You are not a member of that project.");
    jar.set(PROJECT_COOKIE, projectId, projectCookieOptions());
    return { ok: true, redirectTo: safeNextPath(next, appOrigin(headers)) };
  });
}

/**
 * Signs the person out of every browser and device: all their sessions end. (A key's browser
 * session has no "everywhere": the key is shared; only this browser's session ends.)
 */
export async function signOutEverywhere(db: Database, headers: HeaderSource, jar: CookieJar): Promise<{ ok: boolean; error?: string }> {
  const refused = sameOriginOrError(headers);
  if (refused) return { ok: false, error: refused };
  const person = await sessionPerson(db, authHeaders(headers));
  if (person) {
    const context = await (await peopleAuth(db)).$context;
    await context.internalAdapter.deleteUserSessions(person.id);
  }
  await endBrowserSessions(db, headers, jar);
  return { ok: true };
}

function projectCookieOptions() {
  return { httpOnly: true, sameSite: "lax" as const, path: "/", maxAge: 365 * 24 * 60 * 60 };
}
