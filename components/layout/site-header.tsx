import Link from "next/link";
import { SoonBadge } from "../ui/soon-badge";
import { BrandMark } from "./brand-mark";

/** Sections that exist in the product plan but are not built yet: shown, never linked. */
const UPCOMING_SECTIONS = ["Runs", "Reviewer", "Copy"] as const;

export function SiteHeader() {
  return (
    <header className="site-header">
      <nav aria-label="Main" className="site-nav">
        <Link href="/" className="brand">
          <BrandMark />
          <span>Cuescope</span>
        </Link>
        <ul className="nav-list">
          {UPCOMING_SECTIONS.map((name) => (
            <li key={name}>
              <span className="nav-item nav-item-soon" aria-disabled="true" title={`${name}: coming soon`}>
                {name}
                <SoonBadge />
              </span>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
