import { z } from "zod";
import {
  ZIdPathParams,
  ZInvitation,
  ZInvitationCreate,
  ZInvitationCreated,
  ZMember,
  ZMemberList,
  ZMemberRemoved,
  ZRecordIdParam,
  ZResetLink,
  ZRoleChange,
} from "@/lib/contracts";
import { endpoint } from "./endpoint";

const ZPersonPathParams = z.object({ personId: ZRecordIdParam });
const PERSON_ID = { personId: "The member's person id (from the member list)." };
const NOT_A_MEMBER = "No such member in the project.";
const LAST_ADMIN = "The project's last admin cannot lose the admin role.";

/**
 * The project's people (issue 25): who belongs with which role, invitation links, role changes,
 * removals and password reset links. Changes need the admin role (or an admin key); each is
 * recorded in the audit log.
 */
export const membersApi = {
  list: endpoint({
    id: "listMembers",
    method: "GET",
    path: "/api/v1/members",
    tag: "Members",
    summary: "List members and invitations",
    description:
      "The project's members by name (role, email, how they sign in, when they joined; `current` marks the person of this request) " +
      "and its latest 100 invitations, newest first, with their status. Never an invitation's link.",
    auth: "key",
    responses: [{ status: 200, description: "Members and invitations.", schema: ZMemberList }],
  }),
  invite: endpoint({
    id: "createInvitation",
    method: "POST",
    path: "/api/v1/members/invitations",
    access: "admin",
    tag: "Members",
    summary: "Make an invitation link",
    description:
      "A link that lets one person join the project with `role` (viewer, member or admin), for 7 days. The answer holds the link, " +
      "this once: only a hash of its token is kept. Give it to the person yourself (no mail is sent). At most 20 at once per " +
      "project, then one every 3 minutes (429 with Retry-After). Recorded in the audit log.",
    auth: "key",
    body: { schema: ZInvitationCreate, maxBytes: 1024, description: "`role`, and an optional `note` (whom it is for)." },
    responses: [{ status: 201, description: "The invitation and its link.", schema: ZInvitationCreated }],
  }),
  revokeInvitation: endpoint({
    id: "revokeInvitation",
    method: "POST",
    path: "/api/v1/members/invitations/{id}/revoke",
    access: "admin",
    tag: "Members",
    summary: "Revoke an invitation link",
    description:
      "The link stops working. Revoking one that was used, revoked or expired changes nothing. Recorded in the audit log. No body.",
    auth: "key",
    pathParams: ZIdPathParams,
    responses: [{ status: 200, description: "The invitation.", schema: ZInvitation }],
    errors: { 404: "No such invitation in the project." },
  }),
  changeRole: endpoint({
    id: "changeMemberRole",
    method: "POST",
    path: "/api/v1/members/{personId}/role",
    access: "admin",
    tag: "Members",
    summary: "Change a member's role",
    description: "Takes effect on the member's next request. Recorded in the audit log (a change to the same role is not).",
    auth: "key",
    pathParams: ZPersonPathParams,
    paramDescriptions: PERSON_ID,
    body: { schema: ZRoleChange, maxBytes: 256, description: "`role`." },
    responses: [{ status: 200, description: "The member.", schema: ZMember }],
    errors: { 404: NOT_A_MEMBER, 409: LAST_ADMIN },
  }),
  remove: endpoint({
    id: "removeMember",
    method: "DELETE",
    path: "/api/v1/members/{personId}",
    access: "admin",
    tag: "Members",
    summary: "Remove a member",
    description: "The person loses access to the project at once (their account and other projects stay). Recorded in the audit log.",
    auth: "key",
    pathParams: ZPersonPathParams,
    paramDescriptions: PERSON_ID,
    responses: [{ status: 200, description: "Removed.", schema: ZMemberRemoved }],
    errors: { 404: NOT_A_MEMBER, 409: LAST_ADMIN },
  }),
  resetLink: endpoint({
    id: "createResetLink",
    method: "POST",
    path: "/api/v1/members/{personId}/reset-link",
    access: "admin",
    tag: "Members",
    summary: "Make a password reset link",
    description:
      "A one-time link, valid for 24 hours, with which the member sets a new password; using it signs them out everywhere. The " +
      "answer holds the link, this once. Recorded in the audit log (never the link). No body.",
    auth: "key",
    pathParams: ZPersonPathParams,
    paramDescriptions: PERSON_ID,
    responses: [{ status: 201, description: "The link.", schema: ZResetLink }],
    errors: { 404: NOT_A_MEMBER },
  }),
};
