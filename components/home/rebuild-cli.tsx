const COMMAND = "npm run --silent rebuild -- path/to/run.jsonl";

const SAMPLE = `{
  "runId": "teach",
  "turns": [{
    "turn": 10,
    "requiredBytes": 9962, "capacityBytes": 10000, "freeBytesAfter": 2,
    "reminders": [
      { "key": "requests", "stage": 2, "bytes": 19, "status": "delivered" },
      { "key": "context",  "stage": 3, "bytes": 21, "status": "dropped", "freeBytes": 19 }
    ]
  }],
  "findings": []
}`;

export function RebuildCli() {
  return (
    <div className="cli">
      <p>
        The same pure rebuild the server runs is available offline. Give it one run as JSON Lines (one telemetry event per line); it prints
        the run&apos;s decisions as JSON on stdout.
      </p>
      <pre className="code" aria-label="Rebuild command">
        <code>
          <span className="prompt" aria-hidden="true">
            ${" "}
          </span>
          {COMMAND}
        </code>
      </pre>
      <ul className="plain-list">
        <li>Same events, same result — whatever order they arrived in, however often one was repeated.</li>
        <li>
          Bad input exits with code <code>2</code>, prints nothing on stdout and one line per problem on stderr:{" "}
          <code>line N: PATH: reason</code>.
        </li>
      </ul>
      <details className="sample">
        <summary>Sample output (abridged)</summary>
        <pre className="code code-muted">
          <code>{SAMPLE}</code>
        </pre>
      </details>
    </div>
  );
}
