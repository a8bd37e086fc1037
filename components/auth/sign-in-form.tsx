"use client";

import { useActionState, useState } from "react";
import { signIn, signInToDemo, type SignInState } from "@/lib/server/auth/actions";

const INITIAL: SignInState = { error: null };

/**
 * Paste a project key, or open the embedded demo project when the server has one. A refused key
 * stays in the field (a typo is fixed, not retyped) and its reason sits under the field it is about.
 */
export function SignInForm({ next, demoAvailable }: { next: string; demoAvailable: boolean }) {
  const [keyState, keyAction, keyPending] = useActionState(signIn, INITIAL);
  const [demoState, demoAction, demoPending] = useActionState(signInToDemo, INITIAL);
  // Controlled: a form action resets uncontrolled fields after it runs.
  const [key, setKey] = useState("");
  return (
    <div className="sign-in">
      {demoAvailable && (
        <form action={demoAction} className="sign-in-demo">
          <input type="hidden" name="next" value={next} />
          <button type="submit" className="button button-primary" disabled={demoPending}>
            {demoPending ? "Opening…" : "Open the demo project"}
          </button>
          <p className="muted">
            Demo runs of an ETF research agent, loaded by <code>npm start</code> into the embedded database.
          </p>
          {demoState.error && (
            <p role="alert" className="form-error">
              {demoState.error}
            </p>
          )}
        </form>
      )}
      <form action={keyAction} className="sign-in-key">
        <input type="hidden" name="next" value={next} />
        <label htmlFor="key">Project API key</label>
        <input
          id="key"
          name="key"
          type="password"
          autoComplete="off"
          placeholder="cs_…"
          required
          value={key}
          onChange={(event) => setKey(event.target.value)}
          aria-invalid={keyState.error ? true : undefined}
          aria-describedby={keyState.error ? "key-error" : undefined}
        />
        {keyState.error && (
          <p id="key-error" role="alert" className="form-error">
            {keyState.error}
          </p>
        )}
        <button type="submit" className="button" disabled={keyPending}>
          {keyPending ? "Checking…" : "Sign in"}
        </button>
        <p className="muted">
          Create one with <code>npm run keys -- create --project NAME</code>. A key sees only its own project.
        </p>
      </form>
    </div>
  );
}
