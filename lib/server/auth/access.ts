import { KEY_SCOPE_HELP, type TKeyScope } from "@/lib/contracts";
import type { Access, AnyEndpoint } from "@/lib/endpoints";
import { DomainError } from "@/lib/server/errors";
import type { Caller } from "./keys";

/** What each key scope may do (an endpoint's `access`, lib/endpoints/endpoint.ts). */
export const SCOPE_GRANTS: Readonly<Record<TKeyScope, readonly Access[]>> = {
  ingest: ["ingest"],
  read: ["read"],
  admin: ["ingest", "read", "write", "admin"],
};

const NEEDS: Readonly<Record<Access, string>> = {
  ingest: "sending telemetry needs an ingest or admin key",
  read: "reading needs a read or admin key",
  write: "changing data needs an admin key",
  admin: "this change needs an admin key",
};

/** Whether a caller's key (or the key its browser session was opened with) may do what `access` names. */
export function mayAccess(caller: Pick<Caller, "scope">, access: Access): boolean {
  return SCOPE_GRANTS[caller.scope ?? "admin"].includes(access);
}

/** 403 unless the caller's key scope allows the endpoint, naming the scope and what the endpoint needs. */
export function assertAccess(caller: Caller, endpoint: AnyEndpoint): void {
  if (mayAccess(caller, endpoint.access)) return;
  const scope = caller.scope ?? "admin";
  throw new DomainError("forbidden", `this key's scope is ${scope} (${KEY_SCOPE_HELP[scope]}): ${NEEDS[endpoint.access]}`);
}
