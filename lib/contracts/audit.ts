import { z } from "zod";
import { ZCursorParam, ZInstantParam, ZRecordIdParam, zIntParam, zTextParam } from "./params";
import { ZExportFormat } from "./reviewer";
import { MAX_REVIEW_TARGET_ID_CHARS } from "./reviews";

/**
 * The audit log: one entry per state change a team cares about, who made it, when, from where, and
 * what it was before and after. Entries are never changed or deleted.
 */

/** What an entry is about. */
export const AUDIT_TARGETS = [
  "copyVersion",
  "policyVersion",
  "experiment",
  "comment",
  "review",
  "alertRule",
  "key",
  "member",
  "invitation",
] as const;
export type TAuditTarget = (typeof AUDIT_TARGETS)[number];

/** Every action, as `<target>.<verb>`, and what `before` and `after` hold for it. */
export const AUDIT_ACTIONS = {
  "copyVersion.create": "a copy version was saved (after: its id, name, parent and note)",
  "copyVersion.makeDefault": "the project's default copy changed (before and after: the default version's id and name)",
  "policyVersion.create": "a policy version was saved (after: its id, name, parent and note)",
  "policyVersion.makeDefault": "the project's default policy changed (before and after: the default version's id and name)",
  "experiment.create": "an experiment was created as a draft (after: its name, note, key and arms)",
  "experiment.update": "a draft's name, note, key or arms changed (before and after: the same fields)",
  "experiment.start": "an experiment started answering assignments (before and after: its status)",
  "experiment.stop": "an experiment stopped answering assignments (before and after: its status)",
  "experiment.promote": "an arm's copy and/or policy became the project's defaults (before and after: the default versions' ids)",
  "comment.delete": "a comment was deleted (before: its run, turn, author and text)",
  "review.verdict":
    "a Reviewer candidate's review verdict or comment was given, changed or taken back (before and after: verdict and comment)",
  "review.assign": "a Reviewer candidate was assigned to a member, to another, or unassigned (before and after: the assignee)",
  "alertRule.create": "an alert rule was made (after: its name, condition, scope, webhook URL and whether it is on; never its secret)",
  "alertRule.update":
    "an alert rule was changed, silenced or turned on or off, or its secret rotated (before and after: the fields that changed; never a secret)",
  "alertRule.delete": "an alert rule was deleted; its alerts stay listed (before: its name, condition, scope and webhook URL)",
  "key.create": "an API key was created (after: its prefix and label; never its secret)",
  "key.revoke": "an API key was revoked (before and after: when it was revoked)",
  "member.setup": "the first administrator set the server up with the one-time setup link (after: their role and email)",
  "member.join": "a person joined the project with an invitation link (after: their role and email)",
  "member.role": "a member's role changed (before and after: the role)",
  "member.remove": "a member was removed from the project (before: their role and email)",
  "member.resetLink": "an admin issued a member a one-time password reset link (after: when it expires; never the link)",
  "member.passwordReset": "a member set a new password with a reset link, ending all their sessions (after: who issued the link)",
  "invitation.create": "an invitation link was made (after: its role, note and expiry; never the link)",
  "invitation.revoke": "an invitation link was revoked before use (before and after: its status)",
} as const satisfies Record<`${TAuditTarget}.${string}`, string>;
export type TAuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as TAuditAction[];
export const ZAuditAction = z.enum(AUDIT_ACTION_NAMES as [TAuditAction, ...TAuditAction[]], {
  error: `expected one of ${AUDIT_ACTION_NAMES.join(", ")}`,
});

/** How the actor was signed in: a Bearer key, a browser session opened with a key, a person (password or single sign-on), or the server's command line (`npm run keys`). */
export const AUDIT_ACTOR_KINDS = ["key", "session", "person", "cli"] as const;

export const ZAuditEntry = z.object({
  /** The entry's place in the log: later entries have larger ids. */
  id: z.string(),
  at: z.string(),
  action: ZAuditAction,
  target: z.object({
    kind: z.enum(AUDIT_TARGETS),
    id: z.string(),
    /** Its name when it has one (a version's, an experiment's, a key's label). */
    name: z.string().nullable(),
  }),
  actor: z.object({
    kind: z.enum(AUDIT_ACTOR_KINDS),
    /** The API key the change was made with (a session's key for a browser); null from the command line. */
    keyId: z.string().nullable(),
    /** The person who acted (kind `person`); null otherwise. */
    personId: z.string().nullable(),
    /** The person's name, the key's label, or `key <prefix>…` for a key without one; `command line` from it. */
    name: z.string(),
  }),
  /** The client's address (the TCP peer, or a trusted proxy's forwarded one); null from the command line. */
  address: z.string().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
});

/** Query of `GET /api/v1/audit`: filters (all optional, combined with AND), newest first in keyset pages. */
export const ZAuditQuery = z.object({
  action: ZAuditAction.optional(),
  target: z.enum(AUDIT_TARGETS, { error: `expected one of ${AUDIT_TARGETS.join(", ")}` }).optional(),
  /**
   * One target's history (usually with `target`). Not a record id of at most 128 characters: a
   * review's target id is `<runId>/<reviewKey>`, the longest there is (MAX_REVIEW_TARGET_ID_CHARS).
   */
  targetId: zTextParam({
    max: MAX_REVIEW_TARGET_ID_CHARS,
    what: `a target id of 1-${MAX_REVIEW_TARGET_ID_CHARS.toLocaleString("en-US")} characters`,
  }).optional(),
  /** Changes made with this API key (its id). */
  actorKeyId: ZRecordIdParam.optional(),
  /** Changes made by this person (their id). */
  actorPersonId: ZRecordIdParam.optional(),
  /** Changes at or after this instant. */
  from: ZInstantParam.optional(),
  /** Changes before this instant. */
  to: ZInstantParam.optional(),
  cursor: ZCursorParam.optional(),
  limit: zIntParam(1, 200).default(50),
});

export const ZAuditList = z.object({ entries: z.array(ZAuditEntry), nextCursor: z.string().nullable() });

/** Query of `GET /api/v1/audit/export`: the list's filters and a format. */
export const ZAuditExportQuery = ZAuditQuery.extend(ZExportFormat.shape);

export type TAuditEntry = z.infer<typeof ZAuditEntry>;
export type TAuditQuery = z.infer<typeof ZAuditQuery>;
export type TAuditList = z.infer<typeof ZAuditList>;
