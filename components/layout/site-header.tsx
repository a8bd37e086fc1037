import { signOut } from "@/lib/server/auth/actions";
import { HeaderNav } from "./header-nav";
import type { Theme } from "./theme";

/** The header; the root layout says whether the request carries a session cookie and which theme the user chose. */
export function SiteHeader({ signedIn, theme }: { signedIn: boolean; theme: Theme }) {
  return (
    <header className="site-header">
      <HeaderNav signedIn={signedIn} theme={theme} signOut={signOut} />
    </header>
  );
}
