"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { describeCondition } from "@/lib/alerts/conditions";
import { FINDING_INFO } from "@/lib/audit/finding-info";
import {
  ALERT_METERS,
  ALERT_WINDOW_LABELS,
  ALERT_WINDOWS,
  FINDING_CODES,
  MAX_RUNS_OUT_TURNS,
  REMINDER_KEYS,
  RUNS_OUT_METERS,
  ZAlertCondition,
  type TAlertCondition,
  type TAlertKind,
  type TAlertScope,
} from "@/lib/contracts";
import { alertKeys, createAlertRule } from "@/lib/queries/alerts";
import { OneTimeSecret } from "@/components/ui/one-time-secret";
import { Panel } from "@/components/ui/panel";
import { useHydrated } from "@/components/ui/use-hydrated";
import styles from "./alerts.module.css";

/** What a link from a chart or a filter fills in (the page's URL: `/alerts?new=<kind>&key=…`). */
export interface RuleDraft {
  kind: TAlertKind;
  key?: string;
  code?: string;
  meter?: string;
  agent?: string;
  model?: string;
}

const KIND_NAMES: Record<TAlertKind, string> = {
  drop_rate: "A key's drop rate rises above a threshold",
  reviewer_violations: "Reviewer violations exceed a number",
  finding: "A finding code appears",
  meter_stage: "A live run's meter reaches a stage",
  runs_out: "A live run will run out within N turns at its pace",
};

/** The form's fields as text (what the inputs hold), turned into a condition on submit. */
type Fields = {
  key: string;
  percent: string;
  minCandidates: string;
  violations: string;
  code: string;
  meter: string;
  stage: string;
  outMeter: string;
  withinTurns: string;
  window: string;
};

function conditionOf(kind: TAlertKind, f: Fields): TAlertCondition | string {
  const raw =
    kind === "drop_rate"
      ? { kind, key: f.key, threshold: Number(f.percent) / 100, minCandidates: Number(f.minCandidates), windowMinutes: Number(f.window) }
      : kind === "reviewer_violations"
        ? { kind, threshold: Number(f.violations), windowMinutes: Number(f.window) }
        : kind === "finding"
          ? { kind, code: f.code, windowMinutes: Number(f.window) }
          : kind === "meter_stage"
            ? { kind, meter: f.meter, stage: Number(f.stage) }
            : { kind, meter: f.outMeter, withinTurns: Number(f.withinTurns) };
  const parsed = ZAlertCondition.safeParse(raw);
  return parsed.success ? parsed.data : parsed.error.issues.map((i) => i.message).join("; ");
}

/** The new-rule form (admins): the condition's fields by kind, the runs it counts, an optional webhook. */
export function NewRule({ draft }: { draft: RuleDraft | null }) {
  const client = useQueryClient();
  const id = useId();
  const hydrated = useHydrated() ? "true" : undefined;
  const [kind, setKind] = useState<TAlertKind>(draft?.kind ?? "drop_rate");
  const [fields, setFields] = useState<Fields>({
    key: draft?.key && (REMINDER_KEYS as readonly string[]).includes(draft.key) ? draft.key : "context",
    percent: "20",
    minCandidates: "20",
    violations: "5",
    code: draft?.code && (FINDING_CODES as readonly string[]).includes(draft.code) ? draft.code : FINDING_CODES[0],
    meter: draft?.meter && (ALERT_METERS as readonly string[]).includes(draft.meter) ? draft.meter : "context",
    stage: "2",
    outMeter: draft?.meter && (RUNS_OUT_METERS as readonly string[]).includes(draft.meter) ? draft.meter : "requests",
    withinTurns: "20",
    window: "60",
  });
  const [scope, setScope] = useState<TAlertScope>({ agent: draft?.agent, model: draft?.model });
  const [name, setName] = useState("");
  const [webhook, setWebhook] = useState("");
  const set = (name: keyof Fields) => (e: { target: { value: string } }) => setFields({ ...fields, [name]: e.target.value });
  const condition = conditionOf(kind, fields);
  const cleanScope: TAlertScope = { ...(scope.agent ? { agent: scope.agent } : {}), ...(scope.model ? { model: scope.model } : {}) };
  const create = useMutation({
    mutationFn: () => {
      if (typeof condition === "string") throw new Error(condition);
      return createAlertRule({
        name: name.trim() || describeCondition(condition, cleanScope).slice(0, 120),
        condition,
        scope: cleanScope,
        webhookUrl: webhook.trim() || null,
        enabled: true,
      });
    },
    onSuccess: () => {
      setName("");
      setWebhook("");
      void client.invalidateQueries({ queryKey: alertKeys.all });
    },
  });
  const field = (suffix: string) => `${id}-${suffix}`;
  return (
    <Panel id="alert-new" title="New rule" meta="checked every minute">
      <form
        className={styles.form}
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <label htmlFor={field("kind")}>When</label>
        <select id={field("kind")} value={kind} onChange={(e) => setKind(e.target.value as TAlertKind)} data-hydrated={hydrated}>
          {(Object.keys(KIND_NAMES) as TAlertKind[]).map((k) => (
            <option key={k} value={k}>
              {KIND_NAMES[k]}
            </option>
          ))}
        </select>
        <div className={styles.fields}>
          {kind === "drop_rate" ? (
            <>
              <span>
                <label htmlFor={field("key")}>Key</label>
                <select id={field("key")} value={fields.key} onChange={set("key")}>
                  {REMINDER_KEYS.map((k) => (
                    <option key={k}>{k}</option>
                  ))}
                </select>
              </span>
              <span>
                <label htmlFor={field("percent")}>Drop rate above (%)</label>
                <input id={field("percent")} type="number" min={0} max={100} step="any" value={fields.percent} onChange={set("percent")} />
              </span>
              <span>
                <label htmlFor={field("min")}>Once at least (candidates)</label>
                <input id={field("min")} type="number" min={1} step={1} value={fields.minCandidates} onChange={set("minCandidates")} />
              </span>
            </>
          ) : null}
          {kind === "reviewer_violations" ? (
            <span>
              <label htmlFor={field("violations")}>More than (violations)</label>
              <input id={field("violations")} type="number" min={0} step={1} value={fields.violations} onChange={set("violations")} />
            </span>
          ) : null}
          {kind === "finding" ? (
            <span>
              <label htmlFor={field("code")}>Finding code</label>
              <select id={field("code")} value={fields.code} onChange={set("code")}>
                {FINDING_CODES.map((code) => (
                  <option key={code} value={code}>
                    {code} — {FINDING_INFO[code].title}
                  </option>
                ))}
              </select>
            </span>
          ) : null}
          {kind === "meter_stage" ? (
            <>
              <span>
                <label htmlFor={field("meter")}>Meter</label>
                <select id={field("meter")} value={fields.meter} onChange={set("meter")}>
                  {ALERT_METERS.map((m) => (
                    <option key={m}>{m}</option>
                  ))}
                </select>
              </span>
              <span>
                <label htmlFor={field("stage")}>At stage or higher</label>
                <input id={field("stage")} type="number" min={1} max={100} step={1} value={fields.stage} onChange={set("stage")} />
              </span>
            </>
          ) : kind === "runs_out" ? (
            <>
              <span>
                <label htmlFor={field("out-meter")}>Runs out of</label>
                <select id={field("out-meter")} value={fields.outMeter} onChange={set("outMeter")}>
                  {RUNS_OUT_METERS.map((m) => (
                    <option key={m}>{m}</option>
                  ))}
                </select>
              </span>
              <span>
                <label htmlFor={field("within")}>Within (turns)</label>
                <input
                  id={field("within")}
                  type="number"
                  min={1}
                  max={MAX_RUNS_OUT_TURNS}
                  step={1}
                  value={fields.withinTurns}
                  onChange={set("withinTurns")}
                  aria-describedby={field("within-help")}
                />
                <small id={field("within-help")} className={styles.sub}>
                  from its last rebuilt turn, at its fitted pace
                </small>
              </span>
            </>
          ) : (
            <span>
              <label htmlFor={field("window")}>Over the last</label>
              <select id={field("window")} value={fields.window} onChange={set("window")}>
                {ALERT_WINDOWS.map((w) => (
                  <option key={w} value={w}>
                    {ALERT_WINDOW_LABELS[w]}
                  </option>
                ))}
              </select>
            </span>
          )}
          <span>
            <label htmlFor={field("agent")}>Agent (empty: all)</label>
            <input
              id={field("agent")}
              value={scope.agent ?? ""}
              onChange={(e) => setScope({ ...scope, agent: e.target.value || undefined })}
              maxLength={200}
            />
          </span>
          <span>
            <label htmlFor={field("model")}>Model (empty: all)</label>
            <input
              id={field("model")}
              value={scope.model ?? ""}
              onChange={(e) => setScope({ ...scope, model: e.target.value || undefined })}
              maxLength={200}
            />
          </span>
        </div>
        <p className={styles.preview} aria-live="polite">
          {typeof condition === "string" ? (
            <span className={styles.error}>{condition}</span>
          ) : (
            <>Fires on: {describeCondition(condition, cleanScope)}.</>
          )}
        </p>
        <label htmlFor={field("name")}>Name (empty: the condition in words)</label>
        <input id={field("name")} value={name} onChange={(e) => setName(e.target.value)} maxLength={120} data-hydrated={hydrated} />
        <label htmlFor={field("webhook")}>Webhook URL (empty: this page only)</label>
        <input
          id={field("webhook")}
          type="url"
          value={webhook}
          onChange={(e) => setWebhook(e.target.value)}
          placeholder="https://hooks.slack.com/services/…"
          aria-describedby={field("webhook-help")}
        />
        <span id={field("webhook-help")} className={styles.sub}>
          Slack-compatible JSON, signed with HMAC-SHA256; its secret is shown once. Private and loopback addresses are refused unless the
          server&apos;s operator allows them.
        </span>
        <p>
          <button type="submit" className="button" disabled={create.isPending || typeof condition === "string"} data-hydrated={hydrated}>
            {create.isPending ? "Making the rule…" : "Make the rule"}
          </button>
        </p>
        {create.isError ? (
          <p role="alert" className={styles.error}>
            The rule was not made: {create.error.message}
          </p>
        ) : null}
      </form>
      {create.data ? (
        create.data.webhookSecret ? (
          <OneTimeSecret
            heading={`Rule “${create.data.name}” made.`}
            hint="Copy its webhook's signing secret now: it is not shown again. Receivers check each message's signature with it."
            label="The webhook's signing secret"
            value={create.data.webhookSecret}
          />
        ) : (
          <p role="status">Rule “{create.data.name}” made.</p>
        )
      ) : null}
    </Panel>
  );
}
