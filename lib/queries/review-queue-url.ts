import type { TProblem } from "@/lib/contracts";
import { parseReviewerUrl, reviewerHref, type ReviewerFilters, type ReviewerView } from "./reviewer-url";
import { readParams, stripUndefined, type SearchInput } from "./url-params";

/** Which candidates of the queue the page lists: without a verdict (the default), with one, or all. */
export const QUEUE_STATUSES = ["open", "reviewed", "all"] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

/** Candidates a page of the queue holds. */
export const QUEUE_PAGE_SIZE = 50;

/**
 * What the queue page's URL says: the Reviewer audit's filters (agent, model, run, range, violations,
 * code), which candidates (`status`), and whose (`assignee`: `me`, `none` or a person id).
 */
export interface QueueView {
  audit: ReviewerView;
  status?: Exclude<QueueStatus, "open">;
  assignee?: string;
}

export type ParsedQueueUrl = { ok: true; view: QueueView; filters: ReviewerFilters } | { ok: false; problems: TProblem[]; view: QueueView };

/** Reads the queue page's URL: the audit's parameters as /reviewer reads them, then the queue's own. */
export function parseQueueUrl(input: SearchInput, now: number): ParsedQueueUrl {
  const audit = parseReviewerUrl(input, now);
  const own = readParams(input, ["status", "assignee"] as const);
  const problems: TProblem[] = audit.ok ? [] : [...audit.problems];
  const status = own.status ?? "open";
  if (!(QUEUE_STATUSES as readonly string[]).includes(status)) {
    problems.push({ path: "status", message: `expected one of ${QUEUE_STATUSES.join(", ")}, got ${JSON.stringify(own.status)}` });
  }
  const assignee = own.assignee;
  if (assignee !== undefined && (assignee.length === 0 || assignee.length > 128)) {
    problems.push({ path: "assignee", message: "expected me, none or a person id" });
  }
  const { cursor: _cursor, sort: _sort, limit: _limit, ...auditView } = audit.view;
  const view: QueueView = stripUndefined({
    audit: auditView,
    status: status === "open" ? undefined : (status as QueueView["status"]),
    assignee,
  });
  if (!audit.ok || problems.length > 0) return { ok: false, problems, view };
  const { cursor: _c, sort: _s, ...filters } = audit.filters;
  return {
    ok: true,
    view,
    filters: stripUndefined({
      ...filters,
      queue: true,
      reviewed: status === "open" ? ("no" as const) : status === "reviewed" ? ("yes" as const) : undefined,
      assignee,
    }),
  };
}

/** The queue page's URL for a view after some changes. */
export function queueHref(view: QueueView, changes: Partial<Omit<QueueView, "audit">> = {}): string {
  const next = { ...view, ...changes };
  const audit = reviewerHref(view.audit);
  const search = new URLSearchParams(audit.includes("?") ? audit.slice(audit.indexOf("?") + 1) : "");
  if (next.status) search.set("status", next.status);
  if (next.assignee) search.set("assignee", next.assignee);
  const text = search.toString();
  return text ? `/reviewer/queue?${text}` : "/reviewer/queue";
}

/** The Reviewer audit with the queue's filters (the way back). */
export function auditHrefOf(view: QueueView): string {
  return reviewerHref(view.audit);
}
