import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "../db";
import { DomainError } from "../errors";
import { authenticate } from "./keys";
import { SESSION_COOKIE } from "./request-key";

export { SESSION_COOKIE, SESSION_COOKIE_OPTIONS } from "./request-key";

/** For server components: the signed-in project, or a redirect to the sign-in page. */
export async function requireSession(next: string): Promise<{ projectId: string; project: string }> {
  const key = (await cookies()).get(SESSION_COOKIE)?.value;
  if (key) {
    try {
      return await authenticate(await getDb(), `Bearer ${key}`);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  redirect(`/login?next=${encodeURIComponent(next)}`);
}
