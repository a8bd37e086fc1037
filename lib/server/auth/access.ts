import { KEY_SCOPE_HELP, PERSON_ROLE_HELP, type TKeyScope, type TPersonRole } from "@/lib/contracts";
import type { Access, AnyEndpoint } from "@/lib/endpoints";
import { DomainError } from "@/lib/server/errors";
import type { Caller } from "./keys";

/** What each key scope may do (an endpoint's `access`, lib/endpoints/endpoint.ts). */
export const SCOPE_GRANTS: Readonly<Record<TKeyScope, readonly Access[]>> = {
  ingest: ["ingest"],
  read: ["read"],
  admin: ["ingest", "read", "write", "admin"],
};

/** What each person's role may do. People read and change; telemetry comes from agents' keys. */
export const ROLE_GRANTS: Readonly<Record<TPersonRole, readonly Access[]>> = {
  viewer: ["read"],
  member: ["read", "write"],
  admin: ["read", "write", "admin"],
};

const KEY_NEEDS: Readonly<Record<Access, string>> = {
  ingest: "sending telemetry needs an ingest or admin key",
  read: "reading needs a read or admin key",
  write: "changing data needs an admin key",
  admin: "this change needs an admin key",
};

const ROLE_NEEDS: Readonly<Record<Access, string>> = {
  ingest: "telemetry is sent with an API key, not by a person",
  read: "reading needs a role in the project",
  write: "this change needs the member or admin role",
  admin: "this change needs the admin role",
};

/** Whether a caller (a key, its browser session, or a person in the project) may do what `access` names. */
export function mayAccess(caller: Pick<Caller, "scope" | "role">, access: Access): boolean {
  if (caller.role) return ROLE_GRANTS[caller.role].includes(access);
  return SCOPE_GRANTS[caller.scope ?? "admin"].includes(access);
}

/** 403 unless the caller may call the endpoint, naming the caller's scope or role and what the endpoint needs. */
export function assertAccess(caller: Caller, endpoint: AnyEndpoint): void {
  assertMay(caller, endpoint.access);
}

/** 403 unless the caller may do what `access` names. */
export function assertMay(caller: Caller, access: Access): void {
  if (mayAccess(caller, access)) return;
  if (caller.role) {
    throw new DomainError(
      "forbidden",
      `your role in ${caller.project} is ${caller.role} (${PERSON_ROLE_HELP[caller.role]}): ${ROLE_NEEDS[access]}`,
    );
  }
  const scope = caller.scope ?? "admin";
  throw new DomainError("forbidden", `this key's scope is ${scope} (${KEY_SCOPE_HELP[scope]}): ${KEY_NEEDS[access]}`);
}
