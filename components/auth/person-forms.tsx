"use client";

import { useActionState, useId, useState } from "react";
import { MIN_PASSWORD_LENGTH } from "@/lib/contracts";
import {
  joinAsSignedIn,
  joinWithPassword,
  resetPassword,
  setUpAsSignedIn,
  setUpWithPassword,
  signInWithPassword,
  signInWithSso,
  type FormState,
} from "@/lib/server/people/actions";

const INITIAL: FormState = { error: null };

function FormError({ id, error }: { id: string; error: string | null }) {
  if (!error) return null;
  return (
    <p id={id} role="alert" className="form-error">
      {error}
    </p>
  );
}

/** A new password, with its rule under it and the form's error (the browser checks the length first). */
function NewPasswordField({ label, hint, error }: { label: string; hint: string; error: string | null }) {
  const id = useId();
  return (
    <>
      <label htmlFor={`${id}-password`}>{label}</label>
      <input
        id={`${id}-password`}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={MIN_PASSWORD_LENGTH}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        aria-invalid={error ? true : undefined}
      />
      <p id={`${id}-hint`} className="muted">
        {hint}
      </p>
      <FormError id={`${id}-error`} error={error} />
    </>
  );
}

/** Email and password. A refused pair keeps the email (a typo is fixed, not retyped). */
export function PasswordSignInForm({ next }: { next: string }) {
  const [state, action, pending] = useActionState(signInWithPassword, INITIAL);
  const [email, setEmail] = useState("");
  const errorId = useId();
  return (
    <form action={action} className="sign-in-account" aria-label="Sign in with your account">
      <input type="hidden" name="next" value={next} />
      <label htmlFor="email">Email</label>
      <input
        id="email"
        name="email"
        type="email"
        autoComplete="username"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <label htmlFor="password">Password</label>
      <input
        id="password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        aria-invalid={state.error ? true : undefined}
        aria-describedby={state.error ? errorId : undefined}
      />
      <FormError id={errorId} error={state.error} />
      <button type="submit" className="button button-primary" disabled={pending}>
        {pending ? "Signing in…" : "Sign in with email"}
      </button>
    </form>
  );
}

/** Single sign-on: the browser goes to the provider and comes back to `next` signed in (an account is made only for a setup or invitation link). */
export function SsoButton({ next, name }: { next: string; name: string }) {
  const [state, action, pending] = useActionState(signInWithSso, INITIAL);
  return (
    <form action={action} className="sign-in-sso">
      <input type="hidden" name="next" value={next} />
      <button type="submit" className="button" disabled={pending}>
        {pending ? "Opening…" : `Continue with ${name}`}
      </button>
      <FormError id="sso-error" error={state.error} />
    </form>
  );
}

/** A new account (name, email, password), for the setup link or an invitation. */
export function NewAccountForm({ token, purpose, submit }: { token: string; purpose: "setup" | "invite"; submit: string }) {
  const [state, action, pending] = useActionState(purpose === "setup" ? setUpWithPassword : joinWithPassword, INITIAL);
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  return (
    <form action={action} className="sign-in-account" aria-label="Create your account">
      <input type="hidden" name="token" value={token} />
      <label htmlFor="name">Your name</label>
      <input id="name" name="name" autoComplete="name" required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
      <label htmlFor="email">Email</label>
      <input
        id="email"
        name="email"
        type="email"
        autoComplete="username"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <NewPasswordField label="Password" hint={`At least ${MIN_PASSWORD_LENGTH} characters.`} error={state.error} />
      <button type="submit" className="button button-primary" disabled={pending}>
        {pending ? "Creating the account…" : submit}
      </button>
    </form>
  );
}

/** One button for a signed-in person: join the invitation's project, or become the first administrator. */
export function SignedInConfirm({ token, purpose, submit }: { token: string; purpose: "setup" | "invite"; submit: string }) {
  const [state, action, pending] = useActionState(purpose === "setup" ? setUpAsSignedIn : joinAsSignedIn, INITIAL);
  return (
    <form action={action}>
      <input type="hidden" name="token" value={token} />
      <button type="submit" className="button button-primary" disabled={pending}>
        {pending ? "One moment…" : submit}
      </button>
      <FormError id="confirm-error" error={state.error} />
    </form>
  );
}

/** A new password with an admin-issued reset link. */
export function ResetPasswordForm({ token }: { token: string }) {
  const [state, action, pending] = useActionState(resetPassword, INITIAL);
  return (
    <form action={action} className="sign-in-account" aria-label="Set a new password">
      <input type="hidden" name="token" value={token} />
      <NewPasswordField
        label="New password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters. Every other session of yours ends.`}
        error={state.error}
      />
      <button type="submit" className="button button-primary" disabled={pending}>
        {pending ? "Saving…" : "Set the password and sign in"}
      </button>
    </form>
  );
}
