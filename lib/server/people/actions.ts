"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/lib/server/db";
import * as people from "./sign-in";

/**
 * The server actions of the people pages (thin wrappers): sign-in with a password or single
 * sign-on, the setup and invitation pages, the reset page, switching projects and signing out
 * everywhere. The logic is in lib/server/people/sign-in.ts.
 */
export interface FormState {
  error: string | null;
}

type Result = Awaited<ReturnType<typeof people.signInWithPassword>>;

function settle(result: Result): FormState {
  if (!result.ok) return { error: result.error };
  redirect(result.redirectTo);
}

const text = (form: FormData, name: string) => String(form.get(name) ?? "");
const account = (form: FormData) => ({ name: text(form, "name"), email: text(form, "email"), password: text(form, "password") });

export async function signInWithPassword(_: FormState, form: FormData): Promise<FormState> {
  return settle(
    await people.signInWithPassword(
      await getDb(),
      text(form, "email"),
      text(form, "password"),
      form.get("next"),
      await headers(),
      await cookies(),
    ),
  );
}

/** Sends the browser to the single sign-on provider, coming back to `next`. */
export async function signInWithSso(_: FormState, form: FormData): Promise<FormState> {
  return settle(await people.startSingleSignOn(await getDb(), form.get("next"), await headers(), await cookies()));
}

export async function setUpWithPassword(_: FormState, form: FormData): Promise<FormState> {
  return settle(await people.setUpWithPassword(await getDb(), text(form, "token"), account(form), await headers(), await cookies()));
}

export async function setUpAsSignedIn(_: FormState, form: FormData): Promise<FormState> {
  return settle(await people.setUpAsSignedIn(await getDb(), text(form, "token"), await headers()));
}

export async function joinWithPassword(_: FormState, form: FormData): Promise<FormState> {
  return settle(await people.joinWithPassword(await getDb(), text(form, "token"), account(form), await headers(), await cookies()));
}

export async function joinAsSignedIn(_: FormState, form: FormData): Promise<FormState> {
  return settle(await people.joinAsSignedIn(await getDb(), text(form, "token"), await headers(), await cookies()));
}

export async function resetPassword(_: FormState, form: FormData): Promise<FormState> {
  return settle(await people.resetWithLink(await getDb(), text(form, "token"), form.get("password"), await headers(), await cookies()));
}

export async function switchProject(form: FormData): Promise<void> {
  const result = await people.switchProject(await getDb(), text(form, "projectId"), form.get("next"), await headers(), await cookies());
  if (!result.ok) throw new Error(result.error);
  redirect(result.redirectTo);
}

export async function signOutEverywhere(): Promise<void> {
  const result = await people.signOutEverywhere(await getDb(), await headers(), await cookies());
  if (!result.ok) throw new Error(result.error);
  redirect("/login");
}
