import Link from "next/link";
import { signOut } from "@/lib/server/auth/actions";
import { BrandMark } from "./brand-mark";

const SECTIONS = [
  { name: "Runs", href: "/runs" },
  { name: "Reviewer", href: "/reviewer" },
  { name: "Copy", href: "/copy" },
  { name: "API", href: "/docs/api" },
] as const;

/** The header; the root layout says whether the request carries a session cookie. */
export function SiteHeader({ signedIn }: { signedIn: boolean }) {
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
