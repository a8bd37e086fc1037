import type { TPersonRole } from "@/lib/contracts";
import type { Caller } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";
import { peopleAuth } from "./people-auth";

/**
 * A person's browser session as a caller (issue 25): better-auth checks the signed cookie and the
 * session row; Cuescope then picks the project the person has open — the one the project cookie
 * names if they are still a member of it, else their first by name — and their role there. The
 * role is read on every request, so a changed role or a removal takes effect at once.
 */

/** The project a person has open (a preference, not a credential: membership is checked on every request). */
export const PROJECT_COOKIE = "cuescope_project";

export interface PersonProject {
  projectId: string;
  project: string;
  role: TPersonRole;
}

/** The signed-in person of a request's cookies, or null when there is none (or it ended). */
export async function sessionPerson(db: Database, headers: Headers): Promise<{ id: string; name: string; email: string } | null> {
  const auth = await peopleAuth(db);
  const found = await auth.api.getSession({ headers });
  return found ? { id: found.user.id, name: found.user.name, email: found.user.email } : null;
}

/** The projects a person belongs to, by name, with their role in each. */
export async function personProjects(db: Database, personId: string): Promise<PersonProject[]> {
  const rows = await db.prisma.projectMember.findMany({
    where: { personId },
    include: { project: { select: { name: true } } },
    orderBy: { project: { name: "asc" } },
  });
  return rows.map((row) => ({ projectId: row.projectId, project: row.project.name, role: row.role as TPersonRole }));
}

/** The caller a person's session stands for, in the project they have open; unauthorized without a session, forbidden without a project. */
export async function authenticatePerson(db: Database, headers: Headers, wantedProjectId?: string | null): Promise<Caller> {
  const person = await sessionPerson(db, headers);
  if (!person) throw new DomainError("unauthorized", "your session ended or was signed out: sign in again");
  const projects = await personProjects(db, person.id);
  if (projects.length === 0) {
    throw new DomainError("forbidden", `${person.email} belongs to no project yet: ask a project's admin for an invitation link`);
  }
  const open = projects.find((p) => p.projectId === wantedProjectId) ?? projects[0];
  return { projectId: open.projectId, project: open.project, person, role: open.role, via: "person" };
}

/** The project cookie's value in a Cookie header. */
export function projectFromCookieHeader(cookie: string | null): string | null {
  const match = new RegExp(`(?:^|;\\s*)${PROJECT_COOKIE}=([^;]*)`).exec(cookie ?? "");
  return match ? decodeURIComponent(match[1].trim()) || null : null;
}
