import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { NewAccountForm, SignedInConfirm, SsoButton } from "@/components/auth/person-forms";
import { PERSON_ROLE_HELP } from "@/lib/contracts";
import { ssoSettings } from "@/lib/server/auth/people-auth";
import { sessionPerson } from "@/lib/server/auth/person-session";
import { getDb } from "@/lib/server/db";
import { readInvitation } from "@/lib/server/people/members";

export const metadata: Metadata = { title: "Invitation", referrer: "no-referrer" };

/** An invitation link: join its project with its role, with a new account, single sign-on, or the account you are signed in with. */
export default async function InvitePage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token = "" } = await searchParams;
  const db = await getDb();
  const read = await readInvitation(db, token);
  const sso = ssoSettings();
  const person = read.ok ? await sessionPerson(db, new Headers(await headers())) : null;
  const here = `/invite?token=${token}`;
  if (!read.ok) {
    return (
      <section className="narrow">
        <h1>Invitation</h1>
        <p role="alert" className="form-error">
          {read.problem}
        </p>
      </section>
    );
  }
  const { project, role, createdBy } = read.invitation;
  return (
    <section className="narrow">
      <h1>Join {project}</h1>
      <p className="lead">
        {createdBy} invites you to <strong>{project}</strong> as a <strong>{role}</strong>: {PERSON_ROLE_HELP[role]}.
      </p>
      {person ? (
        <>
          <p>
            You are signed in as {person.name} ({person.email}).
          </p>
          <div className="sign-in">
            <SignedInConfirm token={token} purpose="invite" submit={`Join ${project} as ${role}`} />
          </div>
        </>
      ) : (
        <>
          {sso ? (
            <div className="sign-in">
              <SsoButton next={here} name={sso.name} />
            </div>
          ) : null}
          <h2>{sso ? "Or create an account" : "Create an account"}</h2>
          <div className="sign-in">
            <NewAccountForm token={token} purpose="invite" submit={`Create the account and join ${project}`} />
          </div>
          <p>
            Have an account already? <Link href={`/login?next=${encodeURIComponent(here)}`}>Sign in</Link>, then open this link again.
          </p>
        </>
      )}
    </section>
  );
}
