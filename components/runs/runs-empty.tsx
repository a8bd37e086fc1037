"use client";

import Link from "next/link";
import { useState } from "react";
import { API_KEY_PLACEHOLDER, ingestCurl } from "@/lib/client/ingest-curl";
import styles from "./runs-empty.module.css";

type Props = {
  project: string;
  ingestUrl: string;
  /** The list is empty because of its filters, not because the project has no runs. */
  filtered: boolean;
  clearHref: string;
  now: number;
};

/**
 * No runs to show: say why. A project without runs also gets how to send a run's first events;
 * a filter that matches nothing only offers to clear it (the project has runs, onboarding would mislead).
 */
export function RunsEmpty({ project, ingestUrl, filtered, clearHref, now }: Props) {
  return (
    <section className={styles.empty} aria-labelledby="runs-empty-title">
      <div className={styles.head}>
        <span className={styles.icon} aria-hidden="true">
          ○
        </span>
        <div>
          <h2 id="runs-empty-title" className={styles.title}>
            {filtered ? "No runs match these filters" : `No runs in project “${project}” yet`}
          </h2>
          <p className={styles.text}>
            {filtered ? (
              <>
                Try a wider time range or another status, or <Link href={clearHref}>clear the filters</Link>.
              </>
            ) : (
              <>Agents send their telemetry to the ingestion API; a run appears here with its first event.</>
            )}
          </p>
        </div>
      </div>
      {filtered ? null : <SendFirstEvents curl={ingestCurl(ingestUrl, new Date(now).toISOString())} />}
    </section>
  );
}

function SendFirstEvents({ curl }: { curl: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className={styles.howto}>
      <div className={styles.howtoHead}>
        <h3 className={styles.howtoTitle}>Send the first events</h3>
        <button
          type="button"
          className={`button button-quiet ${styles.copy}`}
          onClick={() => {
            void navigator.clipboard?.writeText(curl).then(() => setCopied(true));
          }}
        >
          {copied ? "Copied ✓" : "Copy"}
        </button>
      </div>
      <pre className={`code ${styles.code}`} aria-label="Example: send a run.started event with curl">
        <code>{curl}</code>
      </pre>
      <p className={styles.note}>
        Set <code>{API_KEY_PLACEHOLDER}</code> to a key of this project (<code>npm run keys -- create --project NAME</code>). The answer is{" "}
        <code>207</code> with one result per event; send each turn&apos;s <code>meter.requests</code>, <code>request.final</code> and{" "}
        <code>request.submitted</code> the same way, then <code>run.ended</code>. Up to 1,000 events per batch; re-sending an event is a
        no-op. From TypeScript, the SDK in <code>packages/sdk</code> does this for you; every endpoint is in the{" "}
        <Link href="/docs/api">API reference</Link>.
      </p>
    </div>
  );
}
