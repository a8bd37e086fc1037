"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { describeValue } from "@/lib/alerts/conditions";
import type { TAlert, TAlertDelivery, TAlertRule } from "@/lib/contracts";
import { alertExportUrl, alertKeys, alertListQuery, alertRulesQuery, deleteAlertRule, updateAlertRule } from "@/lib/queries/alerts";
import { useFormatInstant } from "@/components/layout/time-zone";
import { useNow } from "@/components/runs/use-now";
import { Panel } from "@/components/ui/panel";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { useHydrated } from "@/components/ui/use-hydrated";
import { NewRule, type RuleDraft } from "./new-rule";
import styles from "./alerts.module.css";

/**
 * /alerts (docs/alerts.md): the project's alert rules — where each stands, silence, turn off,
 * delete — and the alerts they fired, newest first, each with its measurement, a link to the
 * matching runs and its webhook deliveries' answers. Admins change rules; everyone reads.
 */
export function AlertsPage({ canEdit, draft }: { canEdit: boolean; draft: RuleDraft | null }) {
  return (
    <div className={styles.page}>
      <header>
        <h1>Alerts</h1>
        <p className="muted">
          A rule watches what Cuescope already stores — a key&apos;s drop rate, Reviewer violations, a finding code over a rolling window, a
          live run&apos;s meter stage, or a live run projected to run out of requests or time within a number of turns — and is checked
          every minute. It fires once when its condition becomes true, with a signed webhook if it has one, and again only after the
          condition has cleared. Changes to rules are in the <Link href="/audit?target=alertRule">audit log</Link>; each endpoint is in the{" "}
          <Link href="/docs/api">API reference</Link>.
        </p>
      </header>
      {canEdit ? (
        <NewRule draft={draft} />
      ) : (
        <p className={styles.note}>Only a project admin makes and changes alert rules; you can read them and their alerts.</p>
      )}
      <Rules canEdit={canEdit} />
      <Alerts />
    </div>
  );
}

function Rules({ canEdit }: { canEdit: boolean }) {
  const rules = useQuery(alertRulesQuery());
  const firing = rules.data?.rules.filter((r) => r.state === "firing").length ?? 0;
  return (
    <Panel id="alert-rules" title="Rules" meta={rules.data ? `${rules.data.rules.length} rules · ${firing} firing` : undefined}>
      {rules.isError ? (
        <p role="alert" className={styles.error}>
          The rules could not be loaded: {rules.error.message}
        </p>
      ) : !rules.data ? (
        <p aria-busy="true">Loading rules…</p>
      ) : rules.data.rules.length === 0 ? (
        <p>No rules yet.{canEdit ? " Make one above, or from a chart on the trends page or a filter of the runs list." : ""}</p>
      ) : (
        <ScrollRegion label="Alert rules">
          <table className="data-table">
            <caption className="sr-only">Alert rules, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">State</th>
                <th scope="col">Last measured</th>
                <th scope="col">Webhook</th>
                {canEdit ? <th scope="col">Change</th> : null}
              </tr>
            </thead>
            <tbody>
              {rules.data.rules.map((rule) => (
                <RuleRow key={rule.id} rule={rule} canEdit={canEdit} />
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </Panel>
  );
}

function RuleRow({ rule, canEdit }: { rule: TAlertRule; canEdit: boolean }) {
  const format = useFormatInstant();
  // 0 until hydrated: a silence is shown as it was set until the clock is read.
  const now = useNow(0);
  const silenced = rule.silencedUntil !== null && Date.parse(rule.silencedUntil) > now;
  return (
    <tr id={`rule-${rule.id}`}>
      <th scope="row">
        {rule.name}
        <span className={styles.sub}>{rule.description}</span>
      </th>
      <td>
        <span className={!rule.enabled ? styles.silenced : rule.state === "firing" ? styles.firing : styles.ok}>
          {!rule.enabled ? "off" : rule.state === "firing" ? "firing" : "ok"}
        </span>
        {silenced ? <span className={styles.sub}>silenced until {format(rule.silencedUntil!)}</span> : null}
      </td>
      <td>
        {rule.lastValue ? (
          <>
            {describeValue(rule.condition, rule.lastValue)}
            <span className={styles.sub}>{rule.evaluatedAt ? format(rule.evaluatedAt) : ""}</span>
          </>
        ) : (
          <span className="muted">not evaluated yet</span>
        )}
      </td>
      <td>{rule.webhookUrl ? <code className={styles.url}>{rule.webhookUrl}</code> : <span className="muted">none: in-app only</span>}</td>
      {canEdit ? (
        <td>
          <RuleActions rule={rule} silenced={silenced} />
        </td>
      ) : null}
    </tr>
  );
}

const HOUR_MS = 3_600_000;

/** When a silence of 24 hours from now ends (read when the button is pressed). */
function aDayFromNow(): string {
  return new Date(Date.now() + 24 * HOUR_MS).toISOString();
}

function RuleActions({ rule, silenced }: { rule: TAlertRule; silenced: boolean }) {
  const client = useQueryClient();
  const hydrated = useHydrated() ? "true" : undefined;
  const [confirming, setConfirming] = useState(false);
  const done = () => void client.invalidateQueries({ queryKey: alertKeys.all });
  const update = useMutation({
    mutationFn: (body: Parameters<typeof updateAlertRule>[1]) => updateAlertRule(rule.id, body),
    onSettled: done,
  });
  const remove = useMutation({ mutationFn: () => deleteAlertRule(rule.id), onSettled: done });
  const busy = update.isPending || remove.isPending;
  const label = (verb: string) => `${verb} rule “${rule.name}”`;
  /** One of the row's quiet buttons: its visible text, and the rule's name for screen readers. */
  const action = (text: string, verb: string, onClick: () => void) => (
    <button
      type="button"
      className="button button-quiet"
      disabled={busy}
      data-hydrated={hydrated}
      aria-label={label(verb)}
      onClick={onClick}
    >
      {text}
    </button>
  );
  return (
    <div className={styles.actions}>
      {silenced
        ? action("Unsilence", "Unsilence", () => update.mutate({ silencedUntil: null }))
        : action("Silence 24 h", "Silence 24 h:", () => update.mutate({ silencedUntil: aDayFromNow() }))}
      {action(rule.enabled ? "Turn off" : "Turn on", rule.enabled ? "Turn off" : "Turn on", () =>
        update.mutate({ enabled: !rule.enabled }),
      )}
      {confirming ? (
        <span className={styles.confirm}>
          <button type="button" className="button" disabled={busy} onClick={() => remove.mutate()} aria-label={label("Really delete")}>
            Delete it
          </button>
          <button type="button" className="button button-quiet" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </span>
      ) : (
        action("Delete…", "Delete", () => setConfirming(true))
      )}
      {update.isError || remove.isError ? (
        <p role="alert" className={styles.error}>
          Not changed: {(update.error ?? remove.error)?.message}
        </p>
      ) : null}
    </div>
  );
}

function Alerts() {
  const [open, setOpen] = useState(false);
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1];
  const list = useQuery(alertListQuery(open, cursor));
  const hydrated = useHydrated() ? "true" : undefined;
  return (
    <Panel
      id="alert-list"
      title="Alerts"
      meta={
        <>
          <a href={alertExportUrl("csv")} download>
            CSV
          </a>{" "}
          ·{" "}
          <a href={alertExportUrl("json")} download>
            JSON
          </a>
        </>
      }
    >
      <label className={styles.toggle}>
        <input
          type="checkbox"
          checked={open}
          data-hydrated={hydrated}
          onChange={(e) => {
            setOpen(e.target.checked);
            setCursors([null]);
          }}
        />{" "}
        Only alerts whose condition still holds
      </label>
      {list.isError ? (
        <p role="alert" className={styles.error}>
          The alerts could not be loaded: {list.error.message}
        </p>
      ) : !list.data ? (
        <p aria-busy="true">Loading alerts…</p>
      ) : list.data.alerts.length === 0 ? (
        <p>{open ? "No alert holds now." : "No rule has fired yet."}</p>
      ) : (
        <ol className={styles.alerts} aria-label="Alerts, newest first">
          {list.data.alerts.map((alert) => (
            <AlertItem key={alert.id} alert={alert} />
          ))}
        </ol>
      )}
      <p className={styles.pager}>
        {cursors.length > 1 ? (
          <button type="button" className="button button-quiet" onClick={() => setCursors(cursors.slice(0, -1))}>
            Newer alerts
          </button>
        ) : null}
        {list.data?.nextCursor ? (
          <button
            type="button"
            className="button button-quiet"
            data-hydrated={hydrated}
            onClick={() => setCursors([...cursors, list.data!.nextCursor])}
          >
            Older alerts
          </button>
        ) : null}
      </p>
    </Panel>
  );
}

function AlertItem({ alert }: { alert: TAlert }) {
  const format = useFormatInstant();
  return (
    <li id={`alert-${alert.id}`} className={styles.alert}>
      <p className={styles.alertHead}>
        <strong>{alert.ruleName}</strong>{" "}
        <span className={alert.clearedAt ? styles.ok : styles.firing}>{alert.clearedAt ? "cleared" : "holds"}</span>
        {alert.silenced ? <span className={styles.silenced}> silenced: no webhook</span> : null}
      </p>
      <p>{alert.summary}.</p>
      <p className={styles.sub}>
        Fired {format(alert.firedAt)}
        {alert.clearedAt ? `, cleared ${format(alert.clearedAt)}` : ""}
        {alert.ruleId === null ? " · its rule was deleted" : ""} · <Link href={alert.runsHref}>Open the matching runs</Link>
      </p>
      {alert.deliveries.map((delivery) => (
        <Delivery key={delivery.id} delivery={delivery} />
      ))}
    </li>
  );
}

const DELIVERY_WORDS: Record<TAlertDelivery["state"], string> = {
  pending: "webhook pending",
  delivered: "webhook delivered",
  failed: "webhook failed",
};

function Delivery({ delivery }: { delivery: TAlertDelivery }) {
  const format = useFormatInstant();
  const attempts = delivery.attempts.length;
  return (
    <details className={styles.delivery}>
      <summary>
        {DELIVERY_WORDS[delivery.state]} to <code>{delivery.url}</code> after {attempts} attempt{attempts === 1 ? "" : "s"}
      </summary>
      {attempts === 0 ? (
        <p className="muted">No attempt yet.</p>
      ) : (
        <ScrollRegion label={`Attempts of the webhook to ${delivery.url}`}>
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">At</th>
                <th scope="col">Answer</th>
                <th scope="col">Time (ms)</th>
                <th scope="col">Body (start)</th>
              </tr>
            </thead>
            <tbody>
              {delivery.attempts.map((a) => (
                <tr key={a.attempt}>
                  <td>{a.attempt}</td>
                  <td>{format(a.at)}</td>
                  <td>
                    {/* A failed answer's error names its status ("the receiver answered 500 …"); a 2xx has none. */}
                    {a.error ?? `HTTP ${a.status}`}
                  </td>
                  <td>{a.durationMs.toLocaleString("en-US")}</td>
                  <td>{a.responseExcerpt ? <code className={styles.url}>{a.responseExcerpt.slice(0, 200)}</code> : null}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </details>
  );
}
