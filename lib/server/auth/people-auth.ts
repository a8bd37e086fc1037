import { randomBytes } from "node:crypto";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { parseSetCookieHeader } from "better-auth/cookies";
import { genericOAuth } from "better-auth/plugins";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import { env } from "@/lib/server/env";
import { PERSON_COOKIE_PREFIX } from "./person-cookie";

/**
 * People's accounts and sessions are better-auth's (migration 20270102000000_people): it hashes
 * and checks passwords (scrypt), runs the OpenID Connect sign-in (state, PKCE, the ID token's
 * signature and issuer), and keeps each person's sessions. Cuescope keeps what better-auth does not
 * know: which projects a person belongs to, with which role (lib/server/people/members.ts).
 *
 * Only the OAuth callback is served over HTTP (app/api/auth/callback/[providerId]/route.ts); every
 * other call is made by Cuescope's own server actions through `auth.api`, so sign-up is possible
 * only where Cuescope allows it (the setup link, an invitation). The library's rate limiter is off:
 * Cuescope's own (lib/server/auth/rate-limit.ts) counts wrong passwords per address.
 */

/** better-auth's id for the OpenID Connect provider: the callback is {public URL}/api/auth/callback/sso. */
export const SSO_PROVIDER_ID = "sso";
export const AUTH_BASE_PATH = "/api/auth";
export const PERSON_SESSION_DAYS = 7;

export interface SsoSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  name: string;
}

/** The OpenID Connect provider's settings, or null when single sign-on is not set up (all three variables are needed). */
export function ssoSettings(): SsoSettings | null {
  const issuer = env("CUESCOPE_OIDC_ISSUER");
  const clientId = env("CUESCOPE_OIDC_CLIENT_ID");
  const clientSecret = env("CUESCOPE_OIDC_CLIENT_SECRET");
  if (!issuer || !clientId || !clientSecret) return null;
  return { issuer: issuer.replace(/\/+$/, ""), clientId, clientSecret, name: env("CUESCOPE_OIDC_NAME") };
}

/** Where people open Cuescope: CUESCOPE_PUBLIC_URL, else the address `npm start` listens on. */
export function publicUrl(): string {
  return (env("CUESCOPE_PUBLIC_URL") ?? env("CUESCOPE_SERVER_URL") ?? "http://127.0.0.1:3000").replace(/\/+$/, "");
}

/** The secret that signs session cookies: CUESCOPE_AUTH_SECRET, else one made once and kept in the database. */
async function authSecret(db: Database): Promise<string> {
  const given = env("CUESCOPE_AUTH_SECRET");
  if (given) {
    if (given.length < 32) throw new Error("CUESCOPE_AUTH_SECRET must be at least 32 characters");
    return given;
  }
  const made = randomBytes(32).toString("base64url");
  // Two processes starting at once agree: the first insert wins, both read it back.
  await db.prisma.serverSetting.createMany({ data: [{ name: "auth_secret", value: made }], skipDuplicates: true });
  const row = await db.prisma.serverSetting.findUniqueOrThrow({ where: { name: "auth_secret" } });
  return row.value;
}

function createAuth(db: Database, secret: string) {
  const sso = ssoSettings();
  const base = publicUrl();
  return betterAuth({
    appName: "Cuescope",
    baseURL: base,
    basePath: AUTH_BASE_PATH,
    secret,
    trustedOrigins: [base],
    database: prismaAdapter(db.prisma, { provider: "postgresql" }),
    user: { modelName: "person" },
    // Fixed, like a key's browser session (lib/server/auth/sessions.ts): using it does not extend it.
    session: { modelName: "personSession", expiresIn: PERSON_SESSION_DAYS * 24 * 60 * 60, disableSessionRefresh: true },
    account: {
      modelName: "personAccount",
      // A single sign-on identity joins an account of the same email only when both sides vouch for
      // it (better-auth's default): a password account's email is never verified, so such an
      // account is not joined by signing in; its person signs in with the password.
      accountLinking: { enabled: true },
    },
    verification: { modelName: "verification" },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      autoSignIn: false,
    },
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    advanced: { cookiePrefix: PERSON_COOKIE_PREFIX, useSecureCookies: base.startsWith("https:") },
    logger: { level: "error" },
    plugins: sso
      ? [
          genericOAuth({
            config: [
              {
                providerId: SSO_PROVIDER_ID,
                name: sso.name,
                discoveryUrl: `${sso.issuer}/.well-known/openid-configuration`,
                clientId: sso.clientId,
                clientSecret: sso.clientSecret,
                scopes: ["openid", "email", "profile"],
                pkce: true,
                // The ID token's signature and issuer are checked, or the sign-in fails.
                requireIdTokenVerification: true,
                // Nobody gets an account by signing in: only with the setup link or an invitation.
                disableImplicitSignUp: true,
              },
            ],
          }),
        ]
      : [],
  });
}

export type PeopleAuth = ReturnType<typeof createAuth>;

const instances = new WeakMap<Database, Promise<PeopleAuth>>();

/** The better-auth instance of a database (one per database and process). */
export function peopleAuth(db: Database): Promise<PeopleAuth> {
  let instance = instances.get(db);
  if (!instance) {
    instance = authSecret(db).then((secret) => createAuth(db, secret));
    instance.catch(() => instances.delete(db));
    instances.set(db, instance);
  }
  return instance;
}

/** A cookie better-auth asked to set, for a cookie jar (a server action's, or a test's). */
export interface SetCookie {
  name: string;
  value: string;
  options: { httpOnly?: boolean; sameSite?: "lax" | "strict" | "none"; secure?: boolean; path?: string; maxAge?: number };
}

/** The cookies of a better-auth answer's Set-Cookie headers. */
export function cookiesToSet(headers: Headers): SetCookie[] {
  const header = headers.get("set-cookie");
  if (!header) return [];
  return [...parseSetCookieHeader(header).entries()].map(([name, attributes]) => ({
    name,
    value: decodeURIComponent(attributes.value),
    options: {
      httpOnly: attributes.httponly,
      sameSite: attributes.samesite as SetCookie["options"]["sameSite"],
      secure: attributes.secure,
      path: attributes.path ?? "/",
      maxAge: attributes["max-age"],
    },
  }));
}
