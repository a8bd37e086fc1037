import { queryOptions } from "@tanstack/react-query";
import type { TAlertRuleCreate, TAlertRuleUpdate } from "@/lib/contracts";
import { alertsApi } from "@/lib/endpoints/alerts";
import { callEndpoint, endpointFetch, withEndpoint } from "./endpoint-query";

export const alertKeys = {
  all: ["alerts"] as const,
  rules: ["alerts", "rules"] as const,
  list: (open: boolean, cursor: string | null) => ["alerts", "list", open, cursor] as const,
};

/** Alerts per page of the alerts page. */
export const ALERT_PAGE_SIZE = 20;

/** GET /api/v1/alert-rules: the project's rules and where each stands. */
export function alertRulesQuery() {
  const input = { path: {}, query: {} };
  return withEndpoint(alertsApi.rules, input, queryOptions({ queryKey: alertKeys.rules, queryFn: endpointFetch(alertsApi.rules, input) }));
}

/** GET /api/v1/alerts: a page of alerts, newest first (`open`: only those whose condition still holds). */
export function alertListQuery(open: boolean, cursor: string | null = null) {
  const input = {
    path: {},
    query: { ...(open ? { open: "1" } : {}), ...(cursor ? { cursor } : {}), limit: String(ALERT_PAGE_SIZE) },
  };
  return withEndpoint(
    alertsApi.alerts,
    input,
    queryOptions({ queryKey: alertKeys.list(open, cursor), queryFn: endpointFetch(alertsApi.alerts, input) }),
  );
}

export function createAlertRule(body: TAlertRuleCreate) {
  return callEndpoint(alertsApi.create, {}, body);
}

export function updateAlertRule(id: string, body: TAlertRuleUpdate) {
  return callEndpoint(alertsApi.update, { path: { id } }, body);
}

export function deleteAlertRule(id: string) {
  return callEndpoint(alertsApi.delete, { path: { id } });
}

/** The alerts' download. */
export function alertExportUrl(format: "csv" | "json"): string {
  return `${alertsApi.export.path}?format=${format}`;
}

/**
 * The alerts page with its new-rule form filled in (the trends charts' and the runs filters' "Alert
 * on this" links): the condition's kind and field, and the agent and model the view has.
 */
export function newAlertHref(draft: { kind: string; key?: string; code?: string; meter?: string; agent?: string; model?: string }): string {
  const query = new URLSearchParams({ new: draft.kind });
  for (const name of ["key", "code", "meter", "agent", "model"] as const) {
    const value = draft[name];
    if (value) query.set(name, value);
  }
  return `/alerts?${query.toString()}#alert-new`;
}
