import { queryOptions } from "@tanstack/react-query";
import { auditApi } from "@/lib/endpoints/audit";
import { endpointFetch, withEndpoint } from "./endpoint-query";

/** The audit page's filters as its URL holds them (GET /api/v1/audit checks them). */
export const AUDIT_FILTERS = ["action", "target", "targetId", "actorKeyId", "actorPersonId", "from", "to"] as const;
export type AuditFilters = Partial<Record<(typeof AUDIT_FILTERS)[number], string>>;

/** The filters of a URL query: the known ones that are not empty. */
export function auditFiltersOf(params: { get(name: string): string | null }): AuditFilters {
  const filters: AuditFilters = {};
  for (const name of AUDIT_FILTERS) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  return filters;
}

export const auditKeys = {
  all: ["audit"] as const,
  page: (filters: AuditFilters, cursor: string | null) => ["audit", filters, cursor] as const,
};

/** Entries per page of the audit page. */
export const AUDIT_PAGE_SIZE = 50;

/** GET /api/v1/audit: one page of the log (newest first), after `cursor`. */
export function auditQuery(filters: AuditFilters, cursor: string | null = null) {
  const input = { path: {}, query: { ...filters, ...(cursor ? { cursor } : {}), limit: String(AUDIT_PAGE_SIZE) } };
  return withEndpoint(
    auditApi.list,
    input,
    queryOptions({ queryKey: auditKeys.page(filters, cursor), queryFn: endpointFetch(auditApi.list, input) }),
  );
}

/** The export's URL over the same filters. */
export function auditExportUrl(filters: AuditFilters, format: "csv" | "json"): string {
  return `${auditApi.export.path}?${new URLSearchParams({ ...filters, format }).toString()}`;
}
