import { getDb } from "@/lib/server/db";
import { peopleAuth } from "@/lib/server/auth/people-auth";

/**
 * The single sign-on provider sends the browser back here (`{public URL}/api/auth/callback/sso`):
 * better-auth checks the state, exchanges the code (PKCE), verifies the ID token, opens the
 * person's session and redirects to where the sign-in started. The only better-auth path served
 * over HTTP (lib/server/auth/people-auth.ts); a more specific route than app/api/[...path].
 */
async function callback(request: Request): Promise<Response> {
  const auth = await peopleAuth(await getDb());
  return auth.handler(request);
}

export const GET = callback;
export const POST = callback;
