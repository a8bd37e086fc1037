import { queryOptions } from "@tanstack/react-query";
import type { TInvitationCreate, TPersonRole } from "@/lib/contracts";
import { membersApi } from "@/lib/endpoints/members";
import { callEndpoint, endpointFetch, withEndpoint } from "./endpoint-query";

export const memberKeys = { all: ["members"] as const };

/** GET /api/v1/members: the project's members and invitations. */
export function membersQuery() {
  const input = { path: {}, query: {} };
  return withEndpoint(membersApi.list, input, queryOptions({ queryKey: memberKeys.all, queryFn: endpointFetch(membersApi.list, input) }));
}

export function createInvitation(input: TInvitationCreate) {
  return callEndpoint(membersApi.invite, {}, input);
}

export function revokeInvitation(id: string) {
  return callEndpoint(membersApi.revokeInvitation, { path: { id } });
}

export function changeRole(personId: string, role: TPersonRole) {
  return callEndpoint(membersApi.changeRole, { path: { personId } }, { role });
}

export function removeMember(personId: string) {
  return callEndpoint(membersApi.remove, { path: { personId } });
}

export function createResetLink(personId: string) {
  return callEndpoint(membersApi.resetLink, { path: { personId } });
}
