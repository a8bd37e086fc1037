import type { TemplateChange } from "@/lib/copy/diff";
import { templateLabel } from "@/lib/copy/templates";
import styles from "./copy.module.css";

/** The draft's changes against the version it came from, word by word. */
export function CopyDiff({ changes, parentName }: { changes: readonly TemplateChange[]; parentName: string }) {
  if (changes.length === 0) return <p className="muted">No changes from {parentName} yet.</p>;
  return (
    <ol className={styles.diffList} aria-label={`Changes from ${parentName}`}>
      {changes.map((c) => (
        <li key={`${c.key}.${c.name}`} data-change={c.change}>
          <p className={styles.diffHead}>
            <strong>{c.key}</strong> · {templateLabel(c.key, c.name)} <span className={styles.changeTag}>{c.change}</span>
          </p>
          <p className={`${styles.diffText} diff`}>
            {c.words.map((w, i) =>
              w.op === "same" ? (
                <span key={i}>{w.text}</span>
              ) : w.op === "added" ? (
                <ins key={i}>{w.text}</ins>
              ) : (
                <del key={i}>{w.text}</del>
              ),
            )}
          </p>
        </li>
      ))}
    </ol>
  );
}
