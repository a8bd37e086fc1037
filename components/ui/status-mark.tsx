import type { TDeliveryStatus } from "@/lib/contracts";

/** Shape + word for each delivery status: colour is never the only cue (UI.md). */
export const STATUS_MARKS: Record<TDeliveryStatus, string> = {
  delivered: "●",
  dropped: "✕",
  failed: "▲",
  uncertain: "◆",
  pending: "○",
};

type StatusMarkProps = {
  status: TDeliveryStatus;
  /** Show the status word next to the mark (default true). */
  label?: boolean;
};

export function StatusMark({ status, label = true }: StatusMarkProps) {
  return (
    <span className={`status status-${status}`}>
      <span className="status-glyph" aria-hidden="true">
        {STATUS_MARKS[status]}
      </span>
      {label ? <span className="status-word">{status}</span> : <span className="sr-only">{status}</span>}
    </span>
  );
}
