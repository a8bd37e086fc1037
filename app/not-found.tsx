import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Not found" };

export default function NotFound() {
  return (
    <div className="not-found">
      <p className="eyebrow">404</p>
      <h1>Page not found</h1>
      <p className="muted">
        There is nothing at this address. Runs, Reviewer and Copy pages are not built yet; the overview explains what they will show.
      </p>
      <p>
        <Link href="/" className="button">
          Back to the overview
        </Link>
      </p>
    </div>
  );
}
