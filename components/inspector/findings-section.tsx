import type { TFinding } from "@/lib/contracts";
import { findingInfo } from "@/lib/audit/finding-info";
import { InspectorSection } from "./inspector-section";
import styles from "./record.module.css";

/** The turn's audit findings, each explained in plain language with its code and rule. */
export function FindingsSection({ findings }: { findings: readonly TFinding[] }) {
  return (
    <InspectorSection id="inspector-findings" title="Findings" meta={findings.length === 0 ? "none" : `${findings.length}`}>
      {findings.length === 0 ? (
        <p className={styles.faintBlock}>No audit finding on this turn.</p>
      ) : (
        <ul className={styles.findings}>
          {findings.map((f, i) => {
            const info = findingInfo(f.code);
            return (
              <li key={`${f.code}-${i}`} className={styles.finding} data-severity={info.severity}>
                <div className={styles.findingHead}>
                  <span className={styles.severity}>{info.severity}</span>
                  <strong>{info.title}</strong>
                  <code>{f.code}</code>
                  <span className={styles.faint}>{info.ref}</span>
                </div>
                <p className={styles.findingRule}>{info.rule}</p>
                <p className={styles.findingDetail}>{f.detail}</p>
              </li>
            );
          })}
        </ul>
      )}
    </InspectorSection>
  );
}
