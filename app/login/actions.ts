"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { readDemoKey } from "../../lib/server/auth/demo-key";
import { authenticate } from "../../lib/server/auth/keys";
import { SESSION_COOKIE, SESSION_COOKIE_OPTIONS } from "../../lib/server/auth/session";
import { getDb } from "../../lib/server/db";
import { DomainError } from "../../lib/server/errors";

export interface SignInState {
  error: string | null;
}

/** Only same-site paths: never an open redirect. */
function safeNext(value: FormDataEntryValue | null): string {
  const next = typeof value === "string" ? value : "";
  return next.startsWith("/") && !next.startsWith("//") ? next : "/runs";
}

async function startSession(key: string, next: string): Promise<SignInState> {
  try {
    await authenticate(await getDb(), `Bearer ${key}`);
  } catch (error) {
    if (error instanceof DomainError) return { error: `That key was not accepted: ${error.message}.` };
    throw error;
  }
  (await cookies()).set(SESSION_COOKIE, key, SESSION_COOKIE_OPTIONS);
  redirect(next);
}

/** Signs in with a pasted project API key. */
export async function signIn(_: SignInState, form: FormData): Promise<SignInState> {
  const key = String(form.get("key") ?? "").trim();
  if (!key) return { error: "Paste a project API key (it starts with cs_)." };
  return startSession(key, safeNext(form.get("next")));
}

/** Signs in to the embedded database's demo project, when `npm start` created it. */
export async function signInToDemo(_: SignInState, form: FormData): Promise<SignInState> {
  const key = readDemoKey();
  if (!key) return { error: "This server has no demo project." };
  return startSession(key, safeNext(form.get("next")));
}

export async function signOut(): Promise<void> {
  (await cookies()).delete(SESSION_COOKIE);
  redirect("/login");
}
