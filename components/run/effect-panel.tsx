"use client";

import { useQuery } from "@tanstack/react-query";
import { effectCsv, fatigueCsv } from "@/lib/charts/effect";
import { formatCount } from "@/lib/format";
import { runEffectivenessQuery } from "@/lib/queries/trends";
import { EffectTable, FatigueTable } from "@/components/effectiveness/effect-tables";
import { DownloadButton } from "@/components/ui/download-button";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { PanelError } from "./panel-state";
import styles from "./run.module.css";

/**
 * The run's own contract §10 view: how often each key's delivered and dropped reminders were followed
 * up, and its reminder fatigue (repeats, turns between them, bytes and their share of capacity,
 * whether one key took most of the reminder bytes). From its last rebuild's stored counts; nothing for
 * a run without delivered or dropped reminders.
 */
export function RunEffectPanel({ runId, poll }: { runId: string; poll: number | false }) {
  const effect = useQuery({ ...runEffectivenessQuery(runId), refetchInterval: poll });
  if (effect.isError) return <PanelError what="the run's follow-up and fatigue" error={effect.error} onRetry={() => effect.refetch()} />;
  const data = effect.data;
  if (!data || (data.rows.length === 0 && data.fatigue.length === 0)) return null;
  const totals = data.rows.filter((r) => r.contextStage === null);
  const behind = data.rebuiltEvents !== null && data.rebuiltEvents < data.eventCount;
  return (
    <section className={styles.card} aria-labelledby="run-effect-title">
      <header className={`panel-header ${styles.cardHeader}`}>
        <h2 id="run-effect-title">Follow-up and fatigue in this run</h2>
        <span className={styles.meterMeta}>
          reminders and bytes{behind ? ` · from the rebuild of ${formatCount(data.rebuiltEvents!, "event")} of ${data.eventCount}` : ""}
        </span>
      </header>
      <div className={styles.effectBody}>
        <p className={styles.effectNote}>
          Delivered and dropped reminders of this run and how many the model followed up (§8, next 3 turns). One run&apos;s reminders are
          not independent: the intervals describe this run, and the comparison is an association, not an effect.
        </p>
        {totals.length > 0 ? (
          <ScrollRegion label="This run's delivered vs dropped follow-up">
            <EffectTable rows={totals} caption="Every context stage together" />
          </ScrollRegion>
        ) : null}
        {data.fatigue.length > 0 ? (
          <ScrollRegion label="This run's reminder fatigue">
            <FatigueTable rows={data.fatigue} oneRun />
          </ScrollRegion>
        ) : null}
        <p className={styles.effectDownloads}>
          <DownloadButton name={`${runId}-follow-up.csv`} text={() => effectCsv(data.rows)} label="Follow-up (CSV)" />
          <DownloadButton name={`${runId}-fatigue.csv`} text={() => fatigueCsv(data.fatigue)} label="Fatigue (CSV)" />
        </p>
      </div>
    </section>
  );
}
