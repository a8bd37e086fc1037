import styles from "./runs-table.module.css";

/** Placeholder rows while the first page loads. */
export function RunsSkeleton({ rows = 7 }: { rows?: number }) {
  return (
    <div className={styles.wrap} aria-busy="true" aria-label="Loading runs">
      <table className={styles.table}>
        <tbody>
          {Array.from({ length: rows }, (_, i) => (
            <tr key={i}>
              {[38, 10, 8, 8, 5, 11, 8, 9, 7, 8].map((width, j) => (
                <td key={j} style={{ width: `${width}%` }}>
                  <span className={styles.skeleton} />
                  {j === 0 ? <span className={`${styles.skeleton} ${styles.skeletonShort}`} /> : null}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
