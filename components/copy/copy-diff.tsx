import type { TemplateChange } from "@/lib/copy/diff";
import { templateLabel } from "@/lib/copy/templates";
import styles from "./copy.module.css";

/**
 * The draft's changes against the version it came from, word by word: deleted words struck through
 * in `<del>`, inserted ones underlined in `<ins>`, each also named in words for screen readers, and
 * a deletion followed by an insertion kept apart by a space.
 */
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
                <ins key={i}>
                  <span className="sr-only">inserted: </span>
                  {w.text}
                  <span className="sr-only"> (end of insertion)</span>
                </ins>
              ) : (
                <span key={i}>
                  <del>
                    <span className="sr-only">deleted: </span>
                    {w.text}
                    <span className="sr-only"> (end of deletion)</span>
                  </del>
                  {w.gapAfter ? <span aria-hidden="true"> </span> : null}
                </span>
              ),
            )}
          </p>
        </li>
      ))}
    </ol>
  );
}
