import { z } from "zod";

/**
 * People and their roles in projects (issue 25). A person signs in with an email and a password, or
 * with the team's single sign-on; what a person may do in a project is the role they hold there.
 * API keys stay for agents and single-person setups (lib/contracts/keys.ts).
 */

/** `viewer` reads; `member` also comments, saves views and drafts, replays; `admin` also changes defaults, experiments, members and keys. */
export const PERSON_ROLES = ["viewer", "member", "admin"] as const;
export type TPersonRole = (typeof PERSON_ROLES)[number];
export const ZPersonRole = z.enum(PERSON_ROLES, { error: `expected one of ${PERSON_ROLES.join(", ")}` });

export const PERSON_ROLE_HELP: Readonly<Record<TPersonRole, string>> = {
  viewer: "reads everything, changes nothing",
  member: "also comments, saves views and draft versions, runs replays",
  admin: "also changes defaults and experiments, members and API keys",
};

/** Shortest password the sign-up and reset forms accept. */
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 128;

const noControl = (text: string) => !/[\u0000-\u001f\u007f]/.test(text);

export const ZPersonName = z
  .string({ error: "expected a name as text" })
  .trim()
  .min(1, { error: "a name is required" })
  .max(80, { error: "at most 80 characters" })
  .refine(noControl, { error: "no control characters" });
export const ZEmail = z
  .string({ error: "expected an email address" })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: "not an email address" }));
export const ZPassword = z
  .string({ error: "expected a password" })
  .min(MIN_PASSWORD_LENGTH, { error: `at least ${MIN_PASSWORD_LENGTH} characters` })
  .max(MAX_PASSWORD_LENGTH, { error: `at most ${MAX_PASSWORD_LENGTH} characters` });

/** A person with an account: the first administrator's, or one made from an invitation. */
export const ZNewAccount = z.object({ name: ZPersonName, email: ZEmail, password: ZPassword });

export const ZMember = z.object({
  personId: z.string(),
  name: z.string(),
  email: z.string(),
  role: ZPersonRole,
  /** How they can sign in: `password`, and/or the single sign-on provider's id. */
  signIn: z.array(z.string()),
  joinedAt: z.string(),
  /** The person this request comes from. */
  current: z.boolean(),
});

export const ZInvitation = z.object({
  id: z.string(),
  role: ZPersonRole,
  note: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** pending until accepted, revoked or past its expiry. */
  status: z.enum(["pending", "accepted", "revoked", "expired"]),
  acceptedBy: z.string().nullable(),
});

/** `GET /api/v1/members`: the project's members (by name) and its invitations (newest first). */
export const ZMemberList = z.object({ members: z.array(ZMember), invitations: z.array(ZInvitation) });

/** Body of `POST /api/v1/members/invitations`. */
export const ZInvitationCreate = z.strictObject({
  role: ZPersonRole,
  note: z
    .string({ error: "expected a note as text" })
    .trim()
    .max(120, { error: "at most 120 characters" })
    .refine(noControl, { error: "no control characters" })
    .optional(),
});
/** `POST /api/v1/members/invitations`: the invitation and its link, shown this once. */
export const ZInvitationCreated = z.object({ invitation: ZInvitation, link: z.string() });

/** Body of `POST /api/v1/members/{personId}/role`. */
export const ZRoleChange = z.strictObject({ role: ZPersonRole });

/** `DELETE /api/v1/members/{personId}`. */
export const ZMemberRemoved = z.object({ personId: z.string(), removed: z.literal(true) });

/** `POST /api/v1/members/{personId}/reset-link`: a one-time password reset link, shown to the admin once. */
export const ZResetLink = z.object({ link: z.string(), expiresAt: z.string() });

export type TMember = z.infer<typeof ZMember>;
export type TInvitation = z.infer<typeof ZInvitation>;
export type TInvitationCreate = z.infer<typeof ZInvitationCreate>;
export type TNewAccount = z.infer<typeof ZNewAccount>;
