import Link from "next/link";
import { cookies } from "next/headers";
import { signOut } from "../../app/login/actions";
import { SESSION_COOKIE } from "../../lib/server/auth/request-key";
import { BrandMark } from "./brand-mark";

const SECTIONS = [
  { name: "Runs", href: "/runs" },
  { name: "Reviewer", href: "/reviewer" },
  { name: "Copy", href: "/copy" },
] as const;

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
          {SECTIONS.map(({ name, href }) => (
            <li key={name}>
              <Link href={href} className="nav-item">
                {name}
              </Link>
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
