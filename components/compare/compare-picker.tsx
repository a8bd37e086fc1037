"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { compareUrl } from "@/lib/compare-view/compare-url";
import styles from "./compare.module.css";

/** Asks for the two runs to compare when the URL names fewer than two (the runs list and a run page link here with both). */
export function ComparePicker({ a, b }: { a: string; b: string }) {
  const router = useRouter();
  const [runA, setRunA] = useState(a);
  const [runB, setRunB] = useState(b);
  return (
    <div className={styles.page}>
      <header className={styles.head}>
        <h1>Compare runs</h1>
        <p className={styles.lead}>
          Two runs of this project side by side: their meters, reminders and findings, and the turns where they decided differently. Pick
          two runs on the runs list (Compare selected), use Compare with… on a run page, or give their ids here.
        </p>
      </header>
      <form
        className={styles.card}
        onSubmit={(event) => {
          event.preventDefault();
          if (runA.trim() && runB.trim()) router.push(compareUrl({ a: runA.trim(), b: runB.trim() }));
        }}
      >
        <p>
          <label>
            Run A <input name="a" value={runA} onChange={(e) => setRunA(e.target.value)} required />
          </label>
        </p>
        <p>
          <label>
            Run B <input name="b" value={runB} onChange={(e) => setRunB(e.target.value)} required />
          </label>
        </p>
        <button type="submit" className="button">
          Compare
        </button>
      </form>
    </div>
  );
}
