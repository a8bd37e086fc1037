import { signOut } from "@/lib/server/auth/actions";
import { signOutEverywhere, switchProject } from "@/lib/server/people/actions";
import type { PersonAccount } from "./account-items";
import { HeaderNav } from "./header-nav";
import type { Theme } from "./theme";

/** The signed-in person's part of the Account menu, as the root layout reads it. */
export type PersonInHeader = Omit<PersonAccount, "switchProject" | "signOutEverywhere">;

/** The person's role in the project they have open. */
function openRole(person: PersonInHeader) {
  return person.projects.find((p) => p.projectId === person.openProjectId)?.role;
}

/**
 * The header; the root layout says whether the request carries a session cookie, who the signed-in
 * person is (not for a key's session) and which theme the user chose.
 */
export function SiteHeader({ signedIn, person, theme }: { signedIn: boolean; person: PersonInHeader | null; theme: Theme }) {
  return (
    <header className="site-header">
      <HeaderNav
        signedIn={signedIn}
        theme={theme}
        signOut={signOut}
        person={person ? { ...person, switchProject, signOutEverywhere } : null}
      />
      {person && openRole(person) === "viewer" ? (
        <p className="read-only-note" role="note">
          You are a <strong>viewer</strong> in {person.projects.find((p) => p.projectId === person.openProjectId)?.project}: you can read
          everything here, and changes are refused. An admin can give you another role.
        </p>
      ) : null}
    </header>
  );
}
