import {
  problemsFrom,
  RUN_PAGE_SIZES,
  RUN_SORTS,
  ZRunListQuery,
  type TFindingCode,
  type TProblem,
  type TRunSort,
  type TRunStatus,
} from "@/lib/contracts";
import { rangeStart, readParams, readTimeRange, stripUndefined, type SearchInput, type TimeRange } from "./url-params";

export { TIME_RANGES, rangeStart, type TimeRange } from "./url-params";
import type { RunFilters } from "./runs";

export const SORT_LABELS: Record<TRunSort, string> = {
  "-started": "Newest first",
  started: "Oldest first",
  "-turns": "Most turns",
  turns: "Fewest turns",
  "-findings": "Most findings",
  findings: "Fewest findings",
  "-dropped": "Most reminders dropped",
  dropped: "Fewest reminders dropped",
  "-dropRate": "Highest drop rate",
  dropRate: "Lowest drop rate",
};
export const DEFAULT_PAGE_SIZE = 50;
export const DEFAULT_SORT: TRunSort = "-started";

/**
 * What the runs page's URL says, as its controls show it. `range` is a preset that slides with the
 * clock ("last 7 days" stays last 7 days when the link is opened tomorrow); `from`/`to` are fixed
 * instants and are only kept when there is no preset.
 */
export interface RunListView {
  q?: string;
  status?: TRunStatus;
  agent?: string;
  model?: string;
  /** An experiment's id and an arm's name (contract §10). */
  experiment?: string;
  arm?: string;
  range?: TimeRange;
  from?: string;
  to?: string;
  /** "1" when on: only runs with Reviewer violations / with dropped reminders. */
  hasViolations?: "1";
  hasDrops?: "1";
  /** Only runs with a finding of this code. */
  finding?: TFindingCode;
  sort: TRunSort;
  /** Rows a page, one of RUN_PAGE_SIZES as text; absent for the default. */
  limit?: string;
  cursor?: string;
}

export type ParsedRunListUrl =
  { ok: true; view: RunListView; filters: RunFilters } | { ok: false; problems: TProblem[]; view: RunListView };

/** The page's URL parameters, in the order they are written back. */
const PARAMS = [
  "q",
  "status",
  "agent",
  "model",
  "experiment",
  "arm",
  "range",
  "from",
  "to",
  "hasViolations",
  "hasDrops",
  "finding",
  "sort",
  "limit",
  "cursor",
] as const;

/**
 * Reads the runs page's URL with the list's contract (ZRunListQuery). A preset range becomes the
 * API's `from`, computed from `now`. Bad values come back as problems naming the parameter.
 */
export function parseRunListUrl(input: SearchInput, now: number): ParsedRunListUrl {
  const params = readParams(input, PARAMS, (name) => name === "q");
  const { range, problems } = readTimeRange(params.range);
  const query = ZRunListQuery.safeParse({
    status: params.status,
    agent: params.agent,
    model: params.model,
    experiment: params.experiment,
    arm: params.arm,
    q: params.q,
    from: range ? rangeStart(range, now) : params.from,
    to: range ? undefined : params.to,
    hasViolations: params.hasViolations,
    hasDrops: params.hasDrops,
    finding: params.finding,
    sort: params.sort,
    cursor: params.cursor,
    limit: params.limit,
  });
  if (!query.success) problems.push(...problemsFrom(query.error));
  if (params.limit !== undefined && !(RUN_PAGE_SIZES as readonly number[]).includes(Number(params.limit)) && query.success) {
    problems.push({ path: "limit", message: `expected one of ${RUN_PAGE_SIZES.join(", ")}` });
  }

  const sort = (RUN_SORTS as readonly string[]).includes(params.sort ?? "") ? (params.sort as TRunSort) : DEFAULT_SORT;
  const view: RunListView = stripUndefined({
    q: params.q,
    status: params.status as TRunStatus | undefined,
    agent: params.agent,
    model: params.model,
    experiment: params.experiment,
    arm: params.arm,
    range: range ?? (params.range as TimeRange | undefined),
    from: range ? undefined : params.from,
    to: range ? undefined : params.to,
    hasViolations: flagOn(params.hasViolations),
    hasDrops: flagOn(params.hasDrops),
    finding: params.finding as TFindingCode | undefined,
    sort,
    limit: params.limit,
    cursor: params.cursor,
  });
  if (!query.success || problems.length > 0) return { ok: false, problems, view };

  const { status, agent, model, experiment, arm, q, from, to, cursor, hasViolations, hasDrops, finding } = query.data;
  const filters: RunFilters = stripUndefined({
    status,
    agent,
    model,
    experiment,
    arm,
    q,
    from,
    to,
    hasViolations: hasViolations || undefined,
    hasDrops: hasDrops || undefined,
    finding,
    sort: query.data.sort,
    cursor,
    limit: params.limit === undefined ? undefined : query.data.limit,
  });
  return { ok: true, view, filters };
}

/** A flag's URL value as the view keeps it: "1" when on (1 or true), absent otherwise. */
function flagOn(value: string | undefined): "1" | undefined {
  return value === "1" || value === "true" ? "1" : undefined;
}

/**
 * The runs page's URL for a view after some changes. Any change other than the cursor starts again
 * at the first page; a default sort is left out, so the plain list is plain `/runs`.
 */
export function runListHref(view: RunListView, changes: Partial<RunListView> = {}): string {
  const next = applyViewChanges(view, changes);
  const search = new URLSearchParams();
  for (const name of PARAMS) {
    const value = next[name];
    if (value === undefined || value === "") continue;
    if (name === "sort" && value === DEFAULT_SORT) continue;
    if (name === "limit" && value === String(DEFAULT_PAGE_SIZE)) continue;
    search.set(name, value);
  }
  const text = search.toString();
  return text ? `/runs?${text}` : "/runs";
}

/**
 * The what-if replay preselecting the runs this view lists (its filters; sort and paging play no
 * part). The replay chooses runs by search, facets and time only: hasFigureFilters says when the
 * list narrows further than that.
 */
export function replayHref(view: RunListView): string {
  const search = new URLSearchParams();
  for (const name of ["status", "agent", "model", "q", "range", "from", "to"] as const) {
    const value = view[name];
    if (value !== undefined && value !== "") search.set(name, value);
  }
  const text = search.toString();
  return text ? `/copy/replay?${text}` : "/copy/replay";
}

/** The view after some changes: any change other than the cursor goes back to the first page. */
export function applyViewChanges(view: RunListView, changes: Partial<RunListView>): RunListView {
  const next: RunListView = { ...view, ...changes };
  if (!("cursor" in changes)) next.cursor = undefined;
  if ("range" in changes) {
    next.from = undefined;
    next.to = undefined;
  }
  return next;
}

/** Whether the view narrows the list (a filter or a time window; sort and paging do not). */
export function hasFilters(view: RunListView): boolean {
  return Boolean(
    view.q ||
    view.status ||
    view.agent ||
    view.model ||
    view.experiment ||
    view.arm ||
    view.range ||
    view.from ||
    view.to ||
    view.hasViolations ||
    view.hasDrops ||
    view.finding,
  );
}

/**
 * Whether the view filters on what the replay's choice of runs does not take: a rebuild's figures
 * (violations, drops, a finding code) or an experiment and arm.
 */
export function hasFigureFilters(view: RunListView): boolean {
  return Boolean(view.hasViolations || view.hasDrops || view.finding || view.experiment || view.arm);
}

/** The changes that clear every filter (search, facets, time window and the three figure filters). */
export const CLEARED_FILTERS: Partial<RunListView> = {
  q: undefined,
  status: undefined,
  agent: undefined,
  model: undefined,
  experiment: undefined,
  arm: undefined,
  range: undefined,
  hasViolations: undefined,
  hasDrops: undefined,
  finding: undefined,
};

/** The view's query for saving and exporting: its filters and sort (and page size), never its cursor. */
export function viewQuery(view: RunListView): string {
  const href = runListHref(view, { cursor: undefined });
  const at = href.indexOf("?");
  return at < 0 ? "" : href.slice(at + 1);
}
