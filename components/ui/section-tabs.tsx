import Link from "next/link";
import styles from "./section-tabs.module.css";

const TUNING = [
  { href: "/copy", label: "Copy" },
  { href: "/copy/policy", label: "Policy" },
  { href: "/copy/replay", label: "What-if replay" },
] as const;

/** The tuning section's pages: copy, policy, and the replay that tries them. */
export function TuningTabs({ current }: { current: (typeof TUNING)[number]["href"] }) {
  return (
    <nav aria-label="Tuning" className={styles.tabs}>
      {TUNING.map(({ href, label }) => (
        <Link key={href} href={href} className={styles.tab} aria-current={href === current ? "page" : undefined}>
          {label}
        </Link>
      ))}
    </nav>
  );
}
