import { FINDING_INFO } from "@/lib/audit/finding-info";
import type { TFindingCode } from "@/lib/contracts";
import styles from "./finding-code.module.css";

/**
 * A finding code as a chip: a ⚠ shape and the code (never colour alone), its title and plain rule
 * in the tooltip. Breaks after underscores so long codes wrap in narrow cells.
 */
export function FindingCode({ code, quiet = false }: { code: TFindingCode; quiet?: boolean }) {
  const info = FINDING_INFO[code];
  const parts = code.split("_");
  return (
    <span className={`${styles.chip} ${quiet ? styles.quiet : ""}`} title={`${info.title}: ${info.rule} (${info.ref})`} data-finding={code}>
      <span className={styles.glyph} aria-hidden="true">
        {quiet ? "✓" : "⚠"}
      </span>
      <span className={styles.code}>
        {parts.map((part, i) => (
          <span key={i}>
            {part}
            {i < parts.length - 1 ? (
              <>
                _<wbr />
              </>
            ) : null}
          </span>
        ))}
      </span>
    </span>
  );
}
