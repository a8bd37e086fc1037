import funnelStyles from "./reviewer-funnel.module.css";
import tableStyles from "./reviewer-table.module.css";
import { listPageStyles as frame } from "@/components/ui/list-page";

/** Placeholder of the funnel while it loads. */
export function FunnelSkeleton() {
  return (
    <div className={funnelStyles.grid} aria-busy="true" aria-label="Loading the funnel">
      <div className={funnelStyles.panel}>
        <div className={funnelStyles.header}>
          <span className={funnelStyles.title}>Funnel</span>
        </div>
        <div className={funnelStyles.stages}>
          {[0, 1, 2, 3].map((i) => (
            <div key={i} className={funnelStyles.stage}>
              <span className={tableStyles.skeleton} style={{ width: "50%" }} />
              <span className={tableStyles.skeleton} style={{ width: "30%", height: 22, margin: "8px 0" }} />
              <span className={tableStyles.skeleton} />
              <span className={`${tableStyles.skeleton} ${tableStyles.skeletonShort}`} />
              <span className={`${tableStyles.skeleton} ${tableStyles.skeletonShort}`} />
            </div>
          ))}
        </div>
      </div>
      <div className={funnelStyles.panel}>
        <div className={funnelStyles.header}>
          <span className={funnelStyles.title}>Violations by code</span>
        </div>
        <div className={funnelStyles.codes} style={{ padding: 14, display: "grid", gap: 14 }}>
          {[0, 1, 2, 3].map((i) => (
            <span key={i} className={tableStyles.skeleton} />
          ))}
        </div>
      </div>
    </div>
  );
}

/** Placeholder rows while the first page of candidates loads. */
export function TableSkeleton({ rows = 8 }: { rows?: number }) {
  return (
    <div className={frame.panel} aria-busy="true" aria-label="Loading Reviewer candidates">
      <div className="panel-header">
        <h2>Candidates</h2>
      </div>
      <table className={tableStyles.table}>
        <tbody>
          {Array.from({ length: rows }, (_, i) => (
            <tr key={i}>
              {[18, 5, 4, 9, 13, 9, 9, 9, 10, 14].map((width, j) => (
                <td key={j} style={{ width: `${width}%` }}>
                  <span className={tableStyles.skeleton} />
                  {j === 0 || j === 4 ? <span className={`${tableStyles.skeleton} ${tableStyles.skeletonShort}`} /> : null}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
