import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";
import { hostRefusal } from "./allowed-hosts";
import type { Caller } from "./keys";
import { authenticateSession, SESSION_COOKIE } from "./sessions";

export { SESSION_COOKIE } from "./sessions";

/** For server components: the signed-in project (from the session cookie), or a redirect to the sign-in page. */
export async function requireSession(next: string): Promise<Caller> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  // Under a Host that is neither loopback nor allowed there is no session (proxy.ts answers 403 before this).
  if (token && !hostRefusal(await headers())) {
    try {
      return await authenticateSession(await getDb(), token);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  redirect(`/login?next=${encodeURIComponent(next)}`);
}
