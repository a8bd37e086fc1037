"use client";

import { useState } from "react";
import styles from "./one-time-secret.module.css";

/**
 * A secret shown once, when it is made (an API key's secret, an invitation or password reset link),
 * with a copy button: only its hash is kept, so the page cannot show it again.
 */
export function OneTimeSecret({ heading, hint, label, value }: { heading: string; hint: string; label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className={styles.box} role="status">
      <p>
        <strong>{heading}</strong> {hint}
      </p>
      <p className={styles.line}>
        <code aria-label={label}>{value}</code>{" "}
        <button
          type="button"
          className="button button-quiet"
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(() => setCopied(true));
          }}
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </p>
    </div>
  );
}
