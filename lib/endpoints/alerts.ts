import { z } from "zod";
import {
  MAX_ALERT_REQUEST_BYTES,
  ZAlert,
  ZAlertExportQuery,
  ZAlertList,
  ZAlertListQuery,
  ZAlertRule,
  ZAlertRuleCreate,
  ZAlertRuleDeleted,
  ZAlertRulePathParams,
  ZAlertRules,
  ZAlertRuleUpdate,
} from "@/lib/contracts";
import { endpoint } from "./endpoint";

const RULE_ID = { id: "The rule's id, as the API gave it." };
const WEBHOOK =
  "`webhookUrl` must be http or https, not this server, and not a private, loopback or link-local address unless the server's " +
  "operator set `CUESCOPE_WEBHOOK_ALLOW_PRIVATE` (server-side request forgery; a host name's addresses are checked again when a webhook is sent).";

/** Alert rules, the alerts they fired, and their webhook deliveries (docs/alerts.md). */
export const alertsApi = {
  rules: endpoint({
    id: "listAlertRules",
    method: "GET",
    path: "/api/v1/alert-rules",
    tag: "Alerts",
    summary: "List alert rules",
    description: "The project's alert rules, oldest first, each with where its evaluation stands (firing or not, what it last measured).",
    auth: "key",
    responses: [{ status: 200, description: "The rules.", schema: ZAlertRules }],
  }),
  create: endpoint({
    id: "createAlertRule",
    method: "POST",
    path: "/api/v1/alert-rules",
    tag: "Alerts",
    summary: "Make an alert rule",
    description:
      "A rule over the stored aggregates, evaluated every minute: it fires once when its condition becomes true — one alert, and one signed " +
      "webhook when it has a URL — and again only after an evaluation found the condition false. " +
      WEBHOOK +
      " The answer holds the webhook's signing secret, this once. Admins only; in the audit log as `alertRule.create`.",
    auth: "key",
    access: "admin",
    body: { schema: ZAlertRuleCreate, maxBytes: MAX_ALERT_REQUEST_BYTES, description: "The rule." },
    responses: [{ status: 201, description: "The rule, with its webhook's secret.", schema: ZAlertRule }],
  }),
  update: endpoint({
    id: "updateAlertRule",
    method: "PATCH",
    path: "/api/v1/alert-rules/{id}",
    tag: "Alerts",
    summary: "Change, silence or turn off an alert rule",
    description:
      "Fields left out stay as they are. A new condition or scope, or turning the rule off, clears its open alert and starts it afresh. " +
      "`silencedUntil` keeps listing its alerts but sends no webhook until then. `rotateSecret` makes a new signing secret (in the answer, " +
      "this once). " +
      WEBHOOK +
      " With `version`, a rule changed since is refused (409). Admins only; in the audit log as `alertRule.update`.",
    auth: "key",
    access: "admin",
    pathParams: ZAlertRulePathParams,
    paramDescriptions: RULE_ID,
    body: { schema: ZAlertRuleUpdate, maxBytes: MAX_ALERT_REQUEST_BYTES, description: "What to change." },
    responses: [{ status: 200, description: "The rule as it now stands.", schema: ZAlertRule }],
    errors: { 409: "The rule changed since `version` was read." },
  }),
  delete: endpoint({
    id: "deleteAlertRule",
    method: "DELETE",
    path: "/api/v1/alert-rules/{id}",
    tag: "Alerts",
    summary: "Delete an alert rule",
    description:
      "The rule stops; the alerts it fired stay listed with its name. Pending webhook deliveries are not sent. Admins only; in the audit log as `alertRule.delete`.",
    auth: "key",
    access: "admin",
    pathParams: ZAlertRulePathParams,
    paramDescriptions: RULE_ID,
    responses: [{ status: 200, description: "It is gone.", schema: ZAlertRuleDeleted }],
  }),
  alerts: endpoint({
    id: "listAlerts",
    method: "GET",
    path: "/api/v1/alerts",
    tag: "Alerts",
    summary: "List alerts",
    description:
      "The alerts the rules fired, newest first, in pages: what was measured, whether the condition still holds, a link to the matching runs, " +
      "and each webhook delivery with every attempt's answer.",
    auth: "key",
    query: ZAlertListQuery,
    paramDescriptions: { open: "`1`: only alerts whose condition still holds.", ruleId: "Only this rule's alerts." },
    responses: [{ status: 200, description: "A page of alerts.", schema: ZAlertList }],
  }),
  export: endpoint({
    id: "exportAlerts",
    method: "GET",
    path: "/api/v1/alerts/export",
    tag: "Alerts",
    summary: "Export alerts",
    description:
      "Every alert (or one rule's), newest first, streamed as a download: CSV (one line per alert, its deliveries' outcome counted) or a JSON " +
      "array of alerts with their deliveries and attempts. A failure after the download started ends it with an error marker, as the audit export does.",
    auth: "key",
    query: ZAlertExportQuery,
    paramDescriptions: { ruleId: "Only this rule's alerts." },
    responses: [
      {
        status: 200,
        description: "The download.",
        content: [
          { mediaType: "text/csv", schema: "text" },
          { mediaType: "application/json", schema: z.array(ZAlert) },
        ],
      },
    ],
  }),
};
