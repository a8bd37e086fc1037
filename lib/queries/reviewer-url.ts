import {
  problemsFrom,
  ZReviewerCandidatesQuery,
  type TFindingCode,
  type TProblem,
  type TReviewerCandidatesQuery,
  type TReviewerSort,
} from "@/lib/contracts";
import { queryString } from "./api-fetch";
import { queryInput } from "./api-input";
import { runTurnPath } from "./paths";
import { rangeStart, readParams, readTimeRange, stripUndefined, type SearchInput, type TimeRange } from "./url-params";

/** Time range presets of the Reviewer audit: the same sliding windows as the runs list. */
export { TIME_RANGES as REVIEWER_RANGES, rangeStart as reviewerRangeStart, type TimeRange as ReviewerRange } from "./url-params";

/** Candidates per page of the audit table: the default, and the choices (the API takes up to 500). */
export const REVIEWER_PAGE_SIZE = 50;
export const REVIEWER_PAGE_SIZES = [50, 100, 200, 500] as const;

/**
 * What the Reviewer page's URL says, as its controls show it. `range` slides with the clock;
 * `from`/`to` are fixed instants, kept only without a preset. `run` narrows to one run.
 */
export interface ReviewerView {
  agent?: string;
  model?: string;
  run?: string;
  range?: TimeRange;
  from?: string;
  to?: string;
  violations?: boolean;
  /** Only candidates with this Reviewer finding code. */
  code?: TFindingCode;
  /** The table's order; absent is newest run first. */
  sort?: TReviewerSort;
  /** Rows a page, one of REVIEWER_PAGE_SIZES as text; absent for the default. */
  limit?: string;
  cursor?: string;
}

/** The API filters a view stands for (what the candidates, funnel and export endpoints read): the query without its page size. */
export type ReviewerFilters = Omit<TReviewerCandidatesQuery, "limit">;

export type ParsedReviewerUrl =
  { ok: true; view: ReviewerView; filters: ReviewerFilters; pageSize: number } | { ok: false; problems: TProblem[]; view: ReviewerView };

/** The page's URL parameters, in the order they are written back. */
const PARAMS = ["agent", "model", "run", "range", "from", "to", "violations", "code", "sort", "limit", "cursor"] as const;

/**
 * Reads the Reviewer page's URL with the candidates contract (ZReviewerCandidatesQuery). A preset
 * range becomes `from`, computed from `now`; `run` becomes `runId`. Bad values come back as
 * problems naming the URL parameter, so the page can say which and why.
 */
export function parseReviewerUrl(input: SearchInput, now: number): ParsedReviewerUrl {
  const params = readParams(input, PARAMS);
  const { range, problems } = readTimeRange(params.range);
  const query = ZReviewerCandidatesQuery.safeParse({
    agent: params.agent,
    model: params.model,
    runId: params.run,
    from: range ? rangeStart(range, now) : params.from,
    to: range ? undefined : params.to,
    violations: params.violations,
    code: params.code,
    sort: params.sort,
    cursor: params.cursor,
  });
  if (!query.success) {
    // Name the URL's parameter, not the API's.
    problems.push(...problemsFrom(query.error).map((p) => (p.path === "runId" ? { ...p, path: "run" } : p)));
  }
  const pageSize = params.limit === undefined ? REVIEWER_PAGE_SIZE : Number(params.limit);
  if (!(REVIEWER_PAGE_SIZES as readonly number[]).includes(pageSize) || (params.limit !== undefined && !/^\d+$/.test(params.limit))) {
    problems.push({ path: "limit", message: `expected one of ${REVIEWER_PAGE_SIZES.join(", ")}, got ${JSON.stringify(params.limit)}` });
  }

  const flag = params.violations === "1" || params.violations === "true";
  const view: ReviewerView = stripUndefined({
    agent: params.agent,
    model: params.model,
    run: params.run,
    range: range ?? (params.range as TimeRange | undefined),
    from: range ? undefined : params.from,
    to: range ? undefined : params.to,
    violations: flag || undefined,
    code: params.code as TFindingCode | undefined,
    sort: params.sort === "newest" ? undefined : (params.sort as TReviewerSort | undefined),
    limit: params.limit === String(REVIEWER_PAGE_SIZE) ? undefined : params.limit,
    cursor: params.cursor,
  });
  if (!query.success || problems.length > 0) return { ok: false, problems, view };

  const { agent, model, runId, from, to, violations, code, cursor } = query.data;
  const sort = query.data.sort === "newest" ? undefined : query.data.sort;
  return {
    ok: true,
    view,
    filters: stripUndefined({ agent, model, runId, from, to, violations: violations || undefined, code, sort, cursor }),
    pageSize,
  };
}

/** The view after some changes: any change other than the cursor goes back to the first page (a new sort too). */
export function applyReviewerChanges(view: ReviewerView, changes: Partial<ReviewerView>): ReviewerView {
  const next: ReviewerView = { ...view, ...changes };
  if (!("cursor" in changes)) next.cursor = undefined;
  if ("range" in changes) {
    next.from = undefined;
    next.to = undefined;
  }
  if (!next.violations) next.violations = undefined;
  if (next.sort === "newest") next.sort = undefined;
  if (next.limit === String(REVIEWER_PAGE_SIZE)) next.limit = undefined;
  return stripUndefined(next);
}

/** The Reviewer page's URL for a view after some changes; the plain audit is plain `/reviewer`. */
export function reviewerHref(view: ReviewerView, changes: Partial<ReviewerView> = {}): string {
  const next = applyReviewerChanges(view, changes);
  const search = new URLSearchParams();
  for (const name of PARAMS) {
    const value = next[name];
    if (value === undefined || value === "" || value === false) continue;
    search.set(name, value === true ? "1" : value);
  }
  const text = search.toString();
  return text ? `/reviewer?${text}` : "/reviewer";
}

/** Whether the view narrows the audit (a filter or a time window; paging does not). */
export function hasReviewerFilters(view: ReviewerView): boolean {
  return Boolean(view.agent || view.model || view.run || view.range || view.from || view.to || view.violations || view.code);
}

/** The view with every filter cleared (the audit of all runs). */
export const CLEARED: Partial<ReviewerView> = {
  agent: undefined,
  model: undefined,
  run: undefined,
  range: undefined,
  violations: undefined,
  code: undefined,
};

/** The API's query values for filters (a flag is written as `1`, the way the contract reads it). */
export function reviewerApiInput(
  filters: ReviewerFilters,
  extra: Record<string, string | number | undefined> = {},
): Record<string, string> {
  return queryInput({
    agent: filters.agent,
    model: filters.model,
    runId: filters.runId,
    from: filters.from,
    to: filters.to,
    violations: filters.violations,
    code: filters.code,
    sort: filters.sort,
    cursor: filters.cursor,
    queue: filters.queue,
    reviewed: filters.reviewed,
    assignee: filters.assignee,
    ...extra,
  });
}

/** The API's query string for filters. */
export function reviewerApiSearch(filters: ReviewerFilters, extra: Record<string, string | number | undefined> = {}): string {
  return queryString(reviewerApiInput(filters, extra));
}

/** The download link of the audit with these filters: every matching candidate, not one page. */
export function reviewerExportHref(filters: ReviewerFilters, format: "csv" | "json"): string {
  return `/api/v1/reviewer/candidates/export${reviewerApiSearch({ ...filters, cursor: undefined }, { format })}`;
}

/** The run page at a turn: where a candidate's row leads. */
export function runTurnHref(runId: string, turn: number): string {
  return runTurnPath(runId, turn);
}

/** The rows a page of a view (REVIEWER_PAGE_SIZE unless it chose another). */
export function reviewerPageSize(view: ReviewerView): number {
  return view.limit === undefined ? REVIEWER_PAGE_SIZE : Number(view.limit);
}

/** The view's query for a saved view: its filters, never its cursor. */
export function reviewerViewQuery(view: ReviewerView): string {
  const href = reviewerHref(view, { cursor: undefined });
  const at = href.indexOf("?");
  return at < 0 ? "" : href.slice(at + 1);
}

/** The Reviewer audit of one run (the run page's link to it). */
export function reviewerOfRunHref(runId: string): string {
  return reviewerHref({}, { run: runId });
}
