import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Not found" };

/** Where a lost visitor most likely meant to go. */
const DESTINATIONS = [
  { href: "/runs", name: "Runs", what: "every recorded run, with its meters, reminders and findings" },
  { href: "/reviewer", name: "Reviewer", what: "candidates, admissions, dispatches and violations across runs" },
  { href: "/copy", name: "Copy", what: "reminder copy and policy versions, and what-if replays" },
  { href: "/docs/api", name: "API reference", what: "the telemetry and read API" },
];

export default function NotFound() {
  return (
    <div className="not-found">
      <p className="eyebrow">404</p>
      <h1>Page not found</h1>
      <p className="muted">
        There is nothing at this address. A run or version link may name something that was never sent to this project, or the address was
        mistyped.
      </p>
      <ul>
        {DESTINATIONS.map(({ href, name, what }) => (
          <li key={href}>
            <Link href={href}>{name}</Link>: {what}
          </li>
        ))}
      </ul>
      <p>
        <Link href="/" className="button">
          Back to the overview
        </Link>
      </p>
    </div>
  );
}
