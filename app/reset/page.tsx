import type { Metadata } from "next";
import { ResetPasswordForm } from "@/components/auth/person-forms";
import { getDb } from "@/lib/server/db";
import { readResetLink } from "@/lib/server/people/members";

export const metadata: Metadata = { title: "New password", referrer: "no-referrer" };

/** An admin-issued password reset link: set a new password (every session of the account ends) and sign in. */
export default async function ResetPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token = "" } = await searchParams;
  const read = await readResetLink(await getDb(), token);
  return (
    <section className="narrow">
      <h1>Set a new password</h1>
      {read.ok ? (
        <>
          <p className="lead">
            For {read.name} ({read.email}).
          </p>
          <div className="sign-in">
            <ResetPasswordForm token={token} />
          </div>
        </>
      ) : (
        <p role="alert" className="form-error">
          {read.problem}
        </p>
      )}
    </section>
  );
}
