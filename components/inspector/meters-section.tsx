import type { TTurnMeters } from "@/lib/contracts";
import { formatBytes, formatEdits, formatMs, formatPercent, formatRequests } from "@/lib/format";
import { InspectorSection } from "./inspector-section";
import styles from "./meters.module.css";

type MeterRowProps = {
  name: string;
  unit: string;
  value: string;
  detail?: string;
  ratio: number | null;
  stage: number;
  flag?: string;
};

/** One meter in its own unit, with its own bar: meters are never added together. */
function MeterRow({ name, unit, value, detail, ratio, stage, flag }: MeterRowProps) {
  const fill = ratio === null ? 100 : Math.min(100, Math.max(0, ratio * 100));
  return (
    <li className={styles.row} data-stage={stage > 0 ? "reached" : "none"}>
      <span className={styles.name}>
        {name} <span className={styles.unit}>{unit}</span>
      </span>
      <span className={styles.value}>
        {value}
        {detail ? <span className={styles.detail}> · {detail}</span> : null}
        {flag ? <span className={styles.flag}>{flag}</span> : null}
      </span>
      <span className={styles.bar} aria-hidden="true">
        <span className={styles.fill} style={{ width: `${fill}%` }} />
      </span>
      <span className={styles.percent}>{formatPercent(ratio)}</span>
      <span className={styles.stage}>stage {stage}</span>
    </li>
  );
}

function Absent({ name, unit }: { name: string; unit: string }) {
  return (
    <li className={styles.row} data-stage="absent">
      <span className={styles.name}>
        {name} <span className={styles.unit}>{unit}</span>
      </span>
      <span className={`${styles.value} ${styles.absent}`}>no reading, or off in the policy</span>
    </li>
  );
}

/** The meters at the turn, each in its own unit with the stage it reached (R2). */
export function MetersSection({ meters }: { meters: TTurnMeters }) {
  const { requests, time, context, edits } = meters;
  return (
    <InspectorSection id="inspector-meters" title="Meters" meta="each in its own unit">
      <ul className={styles.list}>
        {requests ? (
          <MeterRow
            name="requests"
            unit="count"
            value={`${formatRequests(requests.used, { compact: true })} of ${formatRequests(requests.usable)} usable`}
            detail={`+${formatRequests(requests.reserve, { compact: true })} reserved`}
            ratio={requests.ratio}
            stage={requests.stage}
          />
        ) : (
          <Absent name="requests" unit="count" />
        )}
        {time ? (
          <MeterRow
            name="time"
            unit="min"
            value={`${formatMs(time.elapsedMs, { compact: true })} of ${formatMs(time.limitMs)}`}
            ratio={time.ratio}
            stage={time.stage}
          />
        ) : (
          <Absent name="time" unit="min" />
        )}
        {context ? (
          <MeterRow
            name="context"
            unit="bytes"
            value={`${formatBytes(context.requiredBytes)} of ${formatBytes(context.capacityBytes)}`}
            detail="final request"
            ratio={context.ratio}
            stage={context.stage}
          />
        ) : (
          <Absent name="context" unit="bytes" />
        )}
        {edits?.map((block) => (
          <MeterRow
            key={block.blockId}
            name={`edits ${block.blockId}`}
            unit="count"
            value={`${formatEdits(block.used, { compact: true })} of ${formatEdits(block.limit)}`}
            ratio={block.ratio}
            stage={block.stage}
            flag={block.used >= block.limit ? "exhausted · this block only" : undefined}
          />
        )) ?? <Absent name="edits" unit="count" />}
      </ul>
    </InspectorSection>
  );
}
