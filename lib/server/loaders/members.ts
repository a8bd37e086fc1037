import "server-only";
import { membersApi } from "@/lib/endpoints/members";
import { listMembers } from "@/lib/server/people/members";
import { defineLoader } from "./define-loader";

/** The project's members by name and its latest invitations; `current` marks the caller. */
export const memberListLoader = defineLoader(membersApi.list, (db, projectId, _input, viewer) => listMembers(db, projectId, viewer));
