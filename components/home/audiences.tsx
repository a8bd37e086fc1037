import Link from "next/link";

const AUDIENCES = [
  {
    who: "Researchers reviewing agent runs",
    section: "Runs",
    href: "/runs",
    does: [
      "each meter over the turns, in its own unit",
      "the stage every meter reached, turn by turn",
      "which reminders were delivered or dropped, and why",
      "what the model did afterwards",
    ],
  },
  {
    who: "Team leads auditing Reviewer dispatches",
    section: "Reviewer",
    href: "/reviewer",
    does: [
      "every Reviewer candidate and its admission decision",
      "the denial reasons: disabled, budget, review in progress",
      "every dispatch and its completion",
      "rule violations across runs, e.g. dispatch without admission",
    ],
  },
  {
    who: "Product people tuning reminder copy",
    section: "Copy",
    href: "/copy",
    does: [
      "versioned copy templates and thresholds",
      "what-if replay over recorded runs",
      "delivered vs dropped counts and bytes used",
      "how often the model followed up (association, not causation)",
    ],
  },
] as const;

export function Audiences() {
  return (
    <ul className="audiences" aria-label="Who Cuescope is for">
      {AUDIENCES.map((a) => (
        <li key={a.who} className="card">
          <h3>{a.who}</h3>
          <ul className="checklist">
            {a.does.map((d) => (
              <li key={d}>{d}</li>
            ))}
          </ul>
          <p className="card-foot">
            <Link href={a.href}>Open {a.section.toLowerCase()} →</Link>
          </p>
        </li>
      ))}
    </ul>
  );
}
