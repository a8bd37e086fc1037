"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import * as auth from "./sign-in";
import { getDb } from "@/lib/server/db";

/** The server actions of the sign-in form and the header (thin wrappers): the logic (sessions, limits, same-origin, demo on loopback only) is in lib/server/auth/sign-in.ts. */
export interface SignInState {
  error: string | null;
}

/** Signs in with a pasted project API key. */
export async function signIn(_: SignInState, form: FormData): Promise<SignInState> {
  const result = await auth.signInWithKey(await getDb(), String(form.get("key") ?? ""), form.get("next"), await headers(), await cookies());
  if (!result.ok) return { error: result.error };
  redirect(result.redirectTo);
}

/** Signs in to the embedded database's demo project: loopback connections only. */
export async function signInToDemo(_: SignInState, form: FormData): Promise<SignInState> {
  const result = await auth.signInToDemo(await getDb(), form.get("next"), await headers(), await cookies());
  if (!result.ok) return { error: result.error };
  redirect(result.redirectTo);
}

export async function signOut(): Promise<void> {
  const result = await auth.signOut(await getDb(), await headers(), await cookies());
  if (!result.ok) throw new Error(result.error);
  redirect("/login");
}
