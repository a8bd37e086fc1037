import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";
import { hostRefusal } from "./allowed-hosts";
import type { Caller } from "./keys";
import { hasPersonSessionCookie } from "./person-cookie";
import { authenticatePerson, PROJECT_COOKIE } from "./person-session";
import { authenticateSession, SESSION_COOKIE } from "./sessions";

export { SESSION_COOKIE } from "./sessions";

/**
 * For server components: who is signed in (a key's session cookie, else a person's) and in which
 * project, or a redirect to the sign-in page. A person who belongs to no project yet is sent there
 * too, with a note saying so.
 */
export async function requireSession(next: string): Promise<Caller> {
  const jar = await cookies();
  const requestHeaders = await headers();
  const token = jar.get(SESSION_COOKIE)?.value;
  // Under a Host that is neither loopback nor allowed there is no session (proxy.ts answers 403 before this).
  if (!hostRefusal(requestHeaders)) {
    try {
      if (token) return await authenticateSession(await getDb(), token);
      if (hasPersonSessionCookie(requestHeaders.get("cookie"))) {
        return await authenticatePerson(await getDb(), new Headers(requestHeaders), jar.get(PROJECT_COOKIE)?.value);
      }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.kind === "forbidden") redirect(`/login?next=${encodeURIComponent(next)}&no-project=1`);
    }
  }
  redirect(`/login?next=${encodeURIComponent(next)}`);
}
