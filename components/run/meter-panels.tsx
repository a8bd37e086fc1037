"use client";

import type { TProjectedMeter, TRunProjection, TRunProjectionCheck, TRunTimeline } from "@/lib/contracts";
import { formatBytes, formatCount, formatEdits, formatMinutes, formatRequests } from "@/lib/format";
import { ContextPartsChart } from "./context-parts-chart";
import { MeterChart, type ValueLine } from "./meter-chart";
import { ProjectionCheckList } from "./projection-check";
import { ProjectionLine } from "./projection-line";
import { projectionPath } from "@/lib/run-view/projection-path";
import { ReminderStrip } from "./reminder-strip";
import { stageRowCount } from "@/lib/run-view/strip-layout";
import type { TurnWindow } from "@/lib/run-view/turn-window";
import styles from "./run.module.css";

export interface AxisProps {
  domain: TurnWindow;
  ticks: readonly number[];
  selectedTurn: number | null;
  onSelectTurn: (turn: number) => void;
  onZoom: (a: number, b: number) => void;
  /** A zoomed window: the value axes fit the window's values. */
  zoomed?: boolean;
}

function MeterPanel({
  id,
  title,
  unit,
  meta,
  children,
}: {
  id: string;
  title: string;
  unit: string;
  meta?: string;
  children: React.ReactNode;
}) {
  return (
    <section className={styles.meterPanel} aria-labelledby={`${id}-title`} data-meter={id}>
      <header className={styles.meterHeader}>
        <h2 id={`${id}-title`}>
          {title} <span className={styles.unitTag}>{unit}</span>
        </h2>
        {meta ? <span className={styles.meterMeta}>{meta}</span> : null}
      </header>
      {children}
    </section>
  );
}

function MeterOff({ what }: { what: string }) {
  return <p className={styles.meterOff}>The run&apos;s policy has no {what} section: this meter is off.</p>;
}

/** The four meter charts, each in its own unit, never combined; each with its reminder strip. */
export function MeterPanels({
  timeline,
  axis,
  projection = null,
  projectionCheck = null,
}: {
  timeline: TRunTimeline;
  axis: AxisProps;
  /** A live run's projection (what runs out next at its recent pace); null for a finished run. */
  projection?: TRunProjection | null;
  /** A finished run's checks of its projection (how far off it was); null for a live run. */
  projectionCheck?: TRunProjectionCheck | null;
}) {
  const meterProjection = (meter: TProjectedMeter) => projection?.meters.find((p) => p.meter === meter) ?? null;
  const ahead = (meter: TProjectedMeter) => {
    const m = meterProjection(meter);
    if (m) return <ProjectionLine projection={m} first={projection?.first?.meter === meter} />;
    return projectionCheck ? <ProjectionCheckList check={projectionCheck} meter={meter} /> : null;
  };
  // Drawn past the last turn when the axis reaches there (a live run's whole view), up to the meter's limit.
  const projected = (meter: TProjectedMeter) => {
    const m = meterProjection(meter);
    return m && axis.domain.to > m.toTurn ? projectionPath(m, axis.domain.to, m.limit.value) : undefined;
  };
  const { requests, time, context, edits, reminders } = timeline;
  const strip = { domain: axis.domain, selectedTurn: axis.selectedTurn, onSelectTurn: axis.onSelectTurn };
  const last = <T,>(points: readonly T[]) => points[points.length - 1];

  return (
    <div className={styles.meters}>
      <MeterPanel
        id="meter-requests"
        title="Requests"
        unit="count"
        meta={
          requests
            ? `${formatRequests(requests.usable)} usable + ${formatRequests(requests.reserve)} reserved = ${formatRequests(requests.limit)}`
            : undefined
        }
      >
        {requests ? (
          <>
            <MeterChart
              {...axis}
              unit="requests"
              axisLabel="requests"
              seriesName="requests used"
              points={requests.points}
              lines={[
                { value: requests.limit, label: `limit ${formatRequests(requests.limit, { compact: true })}`, kind: "limit" },
                ...(requests.reserve
                  ? [
                      {
                        value: requests.usable,
                        label: `usable ${formatRequests(requests.usable, { compact: true })} · reserve above`,
                        kind: "usable",
                      } as ValueLine,
                    ]
                  : []),
                ...requests.thresholds.map((t): ValueLine => ({ value: t.value, label: `s${t.stage}`, kind: "threshold" })),
              ]}
              height={150}
              projected={projected("requests")}
              ariaLabel={`Requests used per turn (count), last ${last(requests.points) ? formatRequests(last(requests.points).value) : "none"}`}
            />
            <ReminderStrip {...strip} label="requests" items={reminders.requests} stageRows={stageRowCount(requests.thresholds)} />
            {ahead("requests")}
          </>
        ) : (
          <MeterOff what="requests" />
        )}
      </MeterPanel>

      <MeterPanel id="meter-time" title="Time" unit="minutes" meta={time ? `limit ${formatMinutes(time.limit)}` : undefined}>
        {time ? (
          <>
            <MeterChart
              {...axis}
              unit="min"
              axisLabel="min"
              seriesName="elapsed"
              points={time.points}
              lines={[
                { value: time.limit, label: `limit ${formatMinutes(time.limit)}`, kind: "limit" },
                ...time.thresholds.map((t): ValueLine => ({ value: t.value, label: `s${t.stage}`, kind: "threshold" })),
              ]}
              height={130}
              projected={projected("time")}
              ariaLabel="Elapsed time per turn (minutes)"
            />
            <ReminderStrip {...strip} label="time" items={reminders.time} stageRows={stageRowCount(time.thresholds)} />
            {ahead("time")}
          </>
        ) : (
          <MeterOff what="time" />
        )}
      </MeterPanel>

      <MeterPanel
        id="meter-context"
        title="Context"
        unit="bytes of the final request"
        meta={
          context
            ? `capacity ${formatBytes(context.capacity)} · ${formatCount(
                context.compactions.reduce((n, c) => n + (c.count ?? 1), 0),
                "compaction",
              )}`
            : undefined
        }
      >
        {context ? (
          <>
            <MeterChart
              {...axis}
              unit="bytes"
              axisLabel="bytes"
              seriesName="required bytes"
              points={context.points}
              compactions={context.compactions}
              lines={[
                { value: context.capacity, label: `capacity ${formatBytes(context.capacity, { compact: true })}`, kind: "limit" },
                ...context.thresholds.map((t): ValueLine => ({ value: t.value, label: `s${t.stage}`, kind: "threshold" })),
              ]}
              height={160}
              projected={projected("context")}
              ariaLabel="Bytes of the final request per turn, with compaction candidates"
            />
            <ReminderStrip {...strip} label="context" items={reminders.context} stageRows={stageRowCount(context.thresholds)} />
            {ahead("context")}
          </>
        ) : (
          <MeterOff what="context" />
        )}
        {timeline.contextParts ? (
          <ContextPartsChart chart={timeline.contextParts} compactions={context?.compactions ?? []} axis={axis} />
        ) : null}
      </MeterPanel>

      <MeterPanel
        id="meter-edits"
        title="Edit quota"
        unit="edits, per block"
        meta={edits ? `${formatEdits(edits.perBlockLimit)} per block unless a block reports its own limit` : undefined}
      >
        {edits ? (
          edits.blocks.length ? (
            <div className={styles.blocks}>
              {edits.blocks.map((block, i) => (
                <div key={block.blockId} className={styles.block}>
                  <div className={styles.blockName} title={`block ${block.blockId}: limit ${formatEdits(block.limit)}`}>
                    block <strong>{block.blockId}</strong> · limit {formatEdits(block.limit)}
                  </div>
                  <MeterChart
                    {...axis}
                    unit="edits"
                    axisLabel="edits"
                    seriesName={`edits used on ${block.blockId}`}
                    points={block.points}
                    lines={[
                      { value: block.limit, label: `limit ${formatEdits(block.limit, { compact: true })}`, kind: "limit" },
                      ...block.thresholds
                        .filter((t) => t.value !== block.limit)
                        .map((t): ValueLine => ({ value: t.value, label: `s${t.stage}`, kind: "threshold" })),
                    ]}
                    height={i === edits.blocks.length - 1 ? 78 : 60}
                    showTurnLabels={i === edits.blocks.length - 1}
                    ariaLabel={`Edits used on block ${block.blockId} per turn (count)`}
                  />
                  <ReminderStrip
                    {...strip}
                    label="edits"
                    items={reminders.edits.filter((r) => r.subject === block.blockId)}
                    stageRows={stageRowCount(edits.stageRatios)}
                  />
                </div>
              ))}
            </div>
          ) : (
            <p className={styles.meterOff}>No block was edited in this window.</p>
          )
        ) : (
          <MeterOff what="edits" />
        )}
      </MeterPanel>
    </div>
  );
}
