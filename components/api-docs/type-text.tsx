import { schemaAnchor } from "./anchors";
import styles from "./api-docs.module.css";

/** A type in words, each named schema in it a link to its section. */
export function TypeText({ type, refs }: { type: string; refs: string[] }) {
  if (refs.length === 0) return <code className={styles.type}>{type}</code>;
  const pattern = new RegExp(`\\b(${[...new Set(refs)].join("|")})\\b`);
  return (
    <code className={styles.type}>
      {type.split(pattern).map((part, i) =>
        refs.includes(part) ? (
          <a key={i} href={`#${schemaAnchor(part)}`}>
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </code>
  );
}
