import type { z } from "zod";
import { VERSION_CONTRACTS, type TVersionCreateOf, type TVersionInfo, type TVersionKind, type TVersionOf } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import type { Prisma } from "@/lib/server/db/generated/client";
import { copyColumn, jsonColumn, policyColumn } from "@/lib/server/db/json-columns";

/** The columns every version table has besides its document, which is named after its kind. */
export interface VersionRow {
  id: string;
  name: string;
  note: string | null;
  savedBy: string;
  parentId: string | null;
  createdAt: Date;
}

/** A new row's shared columns. */
export interface NewVersionRow {
  projectId: string;
  name: string;
  note: string | null;
  parentId: string | null;
  savedBy: string;
}

/** The Prisma calls the shared code makes on a version table; `copyVersion` and `policyVersion` both fit. */
export interface VersionTable<R extends VersionRow, D> {
  create(args: { data: NewVersionRow & D }): Promise<R>;
  findMany(args: { where: { projectId: string }; orderBy: { createdAt: "desc" } }): Promise<R[]>;
  findFirst(args: { where: { id: string; projectId: string } }): Promise<R | null>;
  count(args: { where: { projectId: string; id?: string; name?: string } }): Promise<number>;
}

/** The database's client or a transaction's: what `VersionKind.table` reads a table from. */
export type VersionClient = Pick<Database["prisma"], "copyVersion" | "policyVersion">;

/** The storage types of each kind: its stored row and its document column. */
interface KindTypes {
  copy: { row: VersionRow & { copy: unknown }; document: { copy: Prisma.InputJsonValue } };
  policy: { row: VersionRow & { policy: unknown }; document: { policy: Prisma.InputJsonValue } };
}

/**
 * What one kind of version supplies to the shared code (versions.ts and the routes in
 * lib/server/http/version-routes.ts); everything else about saving, listing, reading and marking a
 * default is the same for both kinds.
 */
export interface VersionKind<K extends TVersionKind> {
  readonly kind: K;
  /** How messages name a version of this kind. */
  readonly noun: string;
  /** The body of `POST /api/v1/<kind>-versions`. */
  readonly createSchema: z.ZodType<TVersionCreateOf<K>>;
  /** The project column naming its default version of this kind. */
  readonly defaultColumn: "defaultCopyVersionId" | "defaultPolicyVersionId";
  /** Its table (copy_versions or policy_versions), on the database's client or a transaction's. */
  table(client: VersionClient): VersionTable<KindTypes[K]["row"], KindTypes[K]["document"]>;
  /** The new row's document column, from a body that passed `createSchema`. */
  documentColumn(input: TVersionCreateOf<K>): KindTypes[K]["document"];
  /** The answer for a stored row: its document read back through its contract (json-columns.ts). */
  version(fields: TVersionInfo, row: KindTypes[K]["row"]): TVersionOf<K>;
}

export const COPY_VERSIONS: VersionKind<"copy"> = {
  kind: "copy",
  noun: "copy version",
  createSchema: VERSION_CONTRACTS.copy.create,
  defaultColumn: "defaultCopyVersionId",
  table: (client) => client.copyVersion,
  documentColumn: (input) => ({ copy: jsonColumn(input.copy) }),
  version: (fields, row) => ({ ...fields, kind: "copy", copy: copyColumn(row) }),
};

export const POLICY_VERSIONS: VersionKind<"policy"> = {
  kind: "policy",
  noun: "policy version",
  createSchema: VERSION_CONTRACTS.policy.create,
  defaultColumn: "defaultPolicyVersionId",
  table: (client) => client.policyVersion,
  documentColumn: (input) => ({ policy: jsonColumn(input.policy) }),
  version: (fields, row) => ({ ...fields, kind: "policy", policy: policyColumn(row) }),
};

/** Every kind, keyed by kind. */
export const VERSION_KIND: { readonly [K in TVersionKind]: VersionKind<K> } = { copy: COPY_VERSIONS, policy: POLICY_VERSIONS };
