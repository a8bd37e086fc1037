import type { Metadata } from "next";
import { SignInForm } from "@/components/auth/sign-in-form";
import { readDemoKey } from "@/lib/server/auth/demo-key";
import { safeNextPath } from "@/lib/server/auth/redirect";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  return (
    <section className="narrow">
      <h1>Sign in to a project</h1>
      <p className="lead">Cuescope shows the runs of one project at a time: the project of the API key you sign in with.</p>
      <SignInForm next={safeNextPath(next)} demoAvailable={readDemoKey() !== undefined} />
    </section>
  );
}
