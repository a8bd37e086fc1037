import type { Metadata } from "next";
import { PasswordSignInForm, SsoButton } from "@/components/auth/person-forms";
import { SignInForm } from "@/components/auth/sign-in-form";
import { readDemoKey } from "@/lib/server/auth/demo-key";
import { ssoSettings } from "@/lib/server/auth/people-auth";
import { safeNextPath } from "@/lib/server/auth/redirect";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string; sso?: string; "no-project"?: string }>;
}) {
  const { next, sso: ssoResult, "no-project": noProject } = await searchParams;
  const target = safeNextPath(next);
  const sso = ssoSettings();
  return (
    <section className="narrow">
      <h1>Sign in</h1>
      {noProject ? (
        <p role="alert" className="form-error">
          Your account belongs to no project yet: ask a project&apos;s admin for an invitation link.
        </p>
      ) : null}
      {ssoResult === "failed" ? (
        <p role="alert" className="form-error">
          Single sign-on did not sign you in. Nobody gets an account by signing in: the first administrator uses the setup link the server
          printed, everyone else an invitation link.
        </p>
      ) : null}
      <h2>With your account</h2>
      <div className="sign-in">
        <PasswordSignInForm next={target} />
        {sso ? <SsoButton next={target} name={sso.name} /> : null}
      </div>
      <h2>With a project API key</h2>
      <p className="lead">A key opens its own project: the demo, or a key made for a single-person setup.</p>
      <SignInForm next={target} demoAvailable={readDemoKey() !== undefined} />
    </section>
  );
}
