import "server-only";
import { membersApi } from "@/lib/endpoints/members";
import { changeRole, createInvitation, issueResetLink, removeMember, revokeInvitation } from "@/lib/server/people/members";
import { endpointRoute } from "./endpoint-route";

/** The members page's writes (the list is a loader's: lib/server/loaders/members.ts). */

export const createInvitationRoute = endpointRoute(membersApi.invite, ({ input, db, auth }) => createInvitation(db, auth, input.body));
export const revokeInvitationRoute = endpointRoute(membersApi.revokeInvitation, ({ input, db, auth }) =>
  revokeInvitation(db, auth, input.path.id),
);
export const changeRoleRoute = endpointRoute(membersApi.changeRole, ({ input, db, auth }) =>
  changeRole(db, auth, input.path.personId, input.body.role),
);
export const removeMemberRoute = endpointRoute(membersApi.remove, ({ input, db, auth }) => removeMember(db, auth, input.path.personId));
export const resetLinkRoute = endpointRoute(membersApi.resetLink, ({ input, db, auth }) => issueResetLink(db, auth, input.path.personId));
