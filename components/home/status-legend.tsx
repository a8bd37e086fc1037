import { DELIVERY_STATUSES, type TDeliveryStatus } from "@/lib/contracts";
import { StatusMark } from "@/components/ui/status-mark";
import { ScrollRegion } from "@/components/ui/scroll-region";

const MEANING: Record<TDeliveryStatus, { meaning: string; ledger: string }> = {
  delivered: { meaning: "In the submitted request; the submission succeeded.", ledger: "stage recorded" },
  dropped: { meaning: "Did not fit the bytes left in the request (needed vs free is shown).", ledger: "reconsidered next turn" },
  failed: { meaning: "In the request, but the submission failed.", ledger: "reconsidered next turn" },
  uncertain: { meaning: "In the request, outcome unknown: counted as possibly delivered.", ledger: "stage recorded; not re-sent for free" },
  pending: { meaning: "In the request; no submission recorded yet.", ledger: "reconsidered next turn" },
};

export function StatusLegend() {
  return (
    <ScrollRegion label="Delivery statuses">
      <table className="data-table">
        <caption className="sr-only">Delivery statuses</caption>
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Meaning</th>
            <th scope="col">Ledger</th>
          </tr>
        </thead>
        <tbody>
          {DELIVERY_STATUSES.map((s) => (
            <tr key={s}>
              <th scope="row">
                <StatusMark status={s} />
              </th>
              <td>{MEANING[s].meaning}</td>
              <td className="muted">{MEANING[s].ledger}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
