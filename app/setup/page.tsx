import type { Metadata } from "next";
import { headers } from "next/headers";
import { NewAccountForm, SignedInConfirm, SsoButton } from "@/components/auth/person-forms";
import { ssoSettings } from "@/lib/server/auth/people-auth";
import { sessionPerson } from "@/lib/server/auth/person-session";
import { getDb } from "@/lib/server/db";
import { setupLinkProblem } from "@/lib/server/people/members";

export const metadata: Metadata = { title: "Set up Cuescope", referrer: "no-referrer" };

/**
 * The first administrator's page: opened with the one-time link the server prints at start while
 * nobody has an account. Whoever opens it makes the first account (or signs in with single sign-on
 * and comes back) and becomes the admin of every project.
 */
export default async function SetupPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token = "" } = await searchParams;
  const db = await getDb();
  const problem = await setupLinkProblem(db, token);
  const sso = ssoSettings();
  const person = problem ? null : await sessionPerson(db, new Headers(await headers()));
  return (
    <section className="narrow">
      <h1>Set up Cuescope</h1>
      {problem ? (
        <p role="alert" className="form-error">
          {problem}
        </p>
      ) : person ? (
        <>
          <p className="lead">
            You are signed in as {person.name} ({person.email}). Become the administrator of every project on this server?
          </p>
          <div className="sign-in">
            <SignedInConfirm token={token} purpose="setup" submit="Become the administrator" />
          </div>
        </>
      ) : (
        <>
          <p className="lead">
            This link was printed by the server and works once. The account you make here administers every project: it invites the rest of
            the team.
          </p>
          <div className="sign-in">
            <NewAccountForm token={token} purpose="setup" submit="Create the administrator account" />
            {sso ? <SsoButton next={`/setup?token=${token}`} name={sso.name} /> : null}
          </div>
        </>
      )}
    </section>
  );
}
