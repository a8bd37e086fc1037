import Link from "next/link";

export default function RunNotFound() {
  return (
    <div className="not-found">
      <p className="eyebrow">404</p>
      <h1>Run not found</h1>
      <p className="muted">This project has no run with that id. It may belong to another project, or its events have not arrived yet.</p>
      <p>
        <Link href="/runs" className="button">
          Back to the runs
        </Link>
      </p>
    </div>
  );
}
