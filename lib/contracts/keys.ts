import { z } from "zod";

/**
 * API keys: what each may do (its scope), shown and managed by an admin key's holder. A key's
 * secret is shown once, when it is made; only its hash is kept.
 */

/**
 * `ingest`: send telemetry (ingest, OTLP, an experiment's assignment), nothing else. `read`: read
 * everything (pages, lists, exports), change nothing. `admin`: everything, keys included.
 */
export const KEY_SCOPES = ["ingest", "read", "admin"] as const;
export type TKeyScope = (typeof KEY_SCOPES)[number];
export const ZKeyScope = z.enum(KEY_SCOPES, { error: `expected one of ${KEY_SCOPES.join(", ")}` });

export const KEY_SCOPE_HELP: Readonly<Record<TKeyScope, string>> = {
  ingest: "sends telemetry only: ingest, OpenTelemetry, experiment assignments",
  read: "reads everything, changes nothing",
  admin: "everything: versions and defaults, experiments, comments, replays, keys",
};

export const ZApiKey = z.object({
  id: z.string(),
  /** The secret's first characters, to tell keys apart (`cs_AbCdEfG`). */
  prefix: z.string(),
  label: z.string().nullable(),
  scope: ZKeyScope,
  createdAt: z.string(),
  /** When it last authenticated a request (to the minute); null if never. */
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  /** The key this request (or its browser session) was made with. */
  current: z.boolean(),
});

/** Body of `POST /api/v1/keys`. */
export const ZApiKeyCreate = z.strictObject({
  label: z
    .string({ error: "expected the key's name as text" })
    .trim()
    .min(1, { error: "a key needs a name" })
    .max(80, { error: "at most 80 characters" })
    .refine((label) => !/[\u0000-\u001f\u007f]/.test(label), { error: "no control characters" }),
  scope: ZKeyScope,
});

/** `POST /api/v1/keys`: the new key and its secret, shown this once. */
export const ZApiKeyCreated = z.object({ key: ZApiKey, secret: z.string() });
/** `GET /api/v1/keys`: the project's keys, live ones first, newest first. */
export const ZApiKeyList = z.object({ keys: z.array(ZApiKey) });

export type TApiKey = z.infer<typeof ZApiKey>;
export type TApiKeyCreate = z.infer<typeof ZApiKeyCreate>;
