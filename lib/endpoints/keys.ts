import { ZApiKey, ZApiKeyCreate, ZApiKeyCreated, ZApiKeyList, ZIdPathParams } from "@/lib/contracts";
import { endpoint } from "./endpoint";

/** The project's API keys: listed, made with a name and a scope (the secret shown once), revoked. Admin keys only. */
export const keysApi = {
  list: endpoint({
    id: "listKeys",
    method: "GET",
    path: "/api/v1/keys",
    access: "admin",
    tag: "API keys",
    summary: "List API keys",
    description:
      "The project's keys, live ones first, newest first: prefix, name, scope, when made, last used (to the minute) and revoked. " +
      "Never a secret. `current` marks the key of this request (or of its browser session).",
    auth: "key",
    responses: [{ status: 200, description: "The keys.", schema: ZApiKeyList }],
  }),
  create: endpoint({
    id: "createKey",
    method: "POST",
    path: "/api/v1/keys",
    access: "admin",
    tag: "API keys",
    summary: "Make an API key",
    description:
      "A new key of the project with a name and a scope: `ingest` (sends telemetry only), `read` (reads everything, changes nothing) or " +
      "`admin` (everything). The answer holds its secret, this once: only its hash is kept. Recorded in the audit log.",
    auth: "key",
    body: { schema: ZApiKeyCreate, maxBytes: 1024, description: "`label` and `scope`." },
    responses: [{ status: 201, description: "The key and its secret.", schema: ZApiKeyCreated }],
  }),
  revoke: endpoint({
    id: "revokeKey",
    method: "POST",
    path: "/api/v1/keys/{id}/revoke",
    access: "admin",
    tag: "API keys",
    summary: "Revoke an API key",
    description:
      "Revokes one of the project's keys: it is refused from now on, and browser sessions opened with it end. Revoking a revoked key " +
      "changes nothing. Recorded in the audit log. No body.",
    auth: "key",
    pathParams: ZIdPathParams,
    responses: [{ status: 200, description: "The key, revoked.", schema: ZApiKey }],
    errors: { 404: "No such key in the project." },
  }),
};
