"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { REMINDER_KEYS } from "@/lib/contracts";
import { differenceText, rateText } from "@/lib/charts/effect";
import { effectivenessQuery } from "@/lib/queries/trends";
import { useTimeZone } from "@/components/layout/time-zone";
import { Panel } from "@/components/ui/panel";
import { ScrollRegion } from "@/components/ui/scroll-region";

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/**
 * The copy page's "Effect" section: per key, over the last 14 days, how often delivered reminders were
 * followed and how often dropped ones were (contract §10): an association, with links to the
 * details on Trends and to experiments, the only way to tell an effect.
 */
export function EffectPanel() {
  const { zone } = useTimeZone();
  const effect = useQuery(effectivenessQuery({ tz: zone }));
  return (
    <Panel id="copy-effect" title="Effect" meta="last 14 days · association, not effect">
      {effect.isError ? (
        <p role="alert">The follow-up could not be loaded: {effect.error.message}</p>
      ) : !effect.data ? (
        <p aria-busy="true">Loading follow-up…</p>
      ) : (
        <>
          <ScrollRegion label="Follow-up per key, delivered vs dropped">
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">key</th>
                  <th scope="col">delivered: followed</th>
                  <th scope="col">dropped: followed</th>
                  <th scope="col">difference</th>
                </tr>
              </thead>
              <tbody>
                {REMINDER_KEYS.map((key) => {
                  const rows = effect.data.rows.filter((r) => r.key === key && r.contextStage === null);
                  if (rows.length === 0) return null;
                  // One stage's row is exact; over several stages the sums are shown without an interval.
                  const [only] = rows;
                  const delivered = sum(rows.map((r) => r.delivered));
                  const deliveredFollowed = sum(rows.map((r) => r.deliveredFollowed));
                  const dropped = sum(rows.map((r) => r.dropped));
                  const droppedFollowed = sum(rows.map((r) => r.droppedFollowed));
                  const plain = (x: number, n: number) => ({ value: n === 0 ? null : x / n, low: null, high: null });
                  return (
                    <tr key={key}>
                      <th scope="row">{key}</th>
                      <td>
                        {rateText(
                          rows.length === 1 ? only.deliveredRate : plain(deliveredFollowed, delivered),
                          deliveredFollowed,
                          delivered,
                        )}
                      </td>
                      <td>{rateText(rows.length === 1 ? only.droppedRate : plain(droppedFollowed, dropped), droppedFollowed, dropped)}</td>
                      <td>{rows.length === 1 ? differenceText(only.difference) : "per stage on Trends"}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </ScrollRegion>
          <p className="muted">
            Dropping happens when the request is full, so this compares unlike turns. See each stage and context stage on{" "}
            <Link href="/trends#effect-delivered-dropped">Trends</Link>; to tell whether copy changes what the model does, run an{" "}
            <Link href="/experiments">experiment</Link>.
          </p>
        </>
      )}
    </Panel>
  );
}
