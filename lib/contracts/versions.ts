import { z } from "zod";
import { ZCopy } from "./copy";
import { ZPolicy } from "./policy";

export const VERSION_KINDS = ["copy", "policy"] as const;
export type TVersionKind = (typeof VERSION_KINDS)[number];

const ZVersionMeta = {
  name: z.string().trim().min(1, { error: "a version needs a name" }).max(80, { error: "at most 80 characters" }),
  note: z.string().max(500, { error: "at most 500 characters" }).optional(),
  /** The version this one was edited from (its diff base). */
  parentId: z.string().min(1).optional(),
  /** Make it the project default at once. */
  makeDefault: z.boolean().optional(),
};

/** Body of `POST /api/v1/copy-versions`: copy is validated per key (placeholders, template names). */
export const ZCopyVersionCreate = z.object({ ...ZVersionMeta, copy: ZCopy });
/** Body of `POST /api/v1/policy-versions`: stages ascending and positive, limits in range. */
export const ZPolicyVersionCreate = z.object({ ...ZVersionMeta, policy: ZPolicy });

const ZVersionDto = {
  id: z.string(),
  name: z.string(),
  note: z.string().nullable(),
  savedBy: z.string(),
  parentId: z.string().nullable(),
  createdAt: z.string(),
  isDefault: z.boolean(),
};

export const ZCopyVersion = z.object({ ...ZVersionDto, kind: z.literal("copy"), copy: ZCopy });
export const ZPolicyVersion = z.object({ ...ZVersionDto, kind: z.literal("policy"), policy: ZPolicy });
export const ZCopyVersionList = z.object({ versions: z.array(ZCopyVersion) });
export const ZPolicyVersionList = z.object({ versions: z.array(ZPolicyVersion) });

export type TCopyVersionCreate = z.infer<typeof ZCopyVersionCreate>;
export type TPolicyVersionCreate = z.infer<typeof ZPolicyVersionCreate>;
export type TCopyVersion = z.infer<typeof ZCopyVersion>;
export type TPolicyVersion = z.infer<typeof ZPolicyVersion>;
/** Each kind's contracts: the body that saves one, one version as answered, and the list answered. */
export const VERSION_CONTRACTS = {
  copy: { create: ZCopyVersionCreate, version: ZCopyVersion, list: ZCopyVersionList },
  policy: { create: ZPolicyVersionCreate, version: ZPolicyVersion, list: ZPolicyVersionList },
} as const;
export type TVersionOf<K extends TVersionKind> = z.infer<(typeof VERSION_CONTRACTS)[K]["version"]>;
export type TVersionCreateOf<K extends TVersionKind> = z.infer<(typeof VERSION_CONTRACTS)[K]["create"]>;

/** What a saved version of either kind has besides its document (what a list of versions shows). */
export type TVersionInfo = Omit<TCopyVersion, "kind" | "copy">;
