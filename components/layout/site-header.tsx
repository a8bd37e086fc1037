import Link from "next/link";
import { cookies } from "next/headers";
import { signOut } from "../../app/login/actions";
import { SESSION_COOKIE } from "../../lib/server/auth/request-key";
import { SoonBadge } from "../ui/soon-badge";
import { BrandMark } from "./brand-mark";

/** Sections that exist in the product plan but are not built yet: shown, never linked. */
const UPCOMING_SECTIONS = ["Copy"] as const;

export async function SiteHeader() {
  const signedIn = (await cookies()).has(SESSION_COOKIE);
  return (
    <header className="site-header">
      <nav aria-label="Main" className="site-nav">
        <Link href="/" className="brand">
          <BrandMark />
          <span>Cuescope</span>
        </Link>
        <ul className="nav-list">
          <li>
            <Link href="/runs" className="nav-item">
              Runs
            </Link>
          </li>
          <li>
            <Link href="/reviewer" className="nav-item">
              Reviewer
            </Link>
          </li>
          {UPCOMING_SECTIONS.map((name) => (
            <li key={name}>
              <span className="nav-item nav-item-soon" aria-disabled="true" title={`${name}: coming soon`}>
                {name}
                <SoonBadge />
              </span>
            </li>
          ))}
        </ul>
        {signedIn && (
          <form action={signOut} className="nav-session">
            <button type="submit" className="button button-quiet">
              Sign out
            </button>
          </form>
        )}
      </nav>
    </header>
  );
}
