import { ZEffectivenessResponse, ZRunEffectivenessResponse, ZRunPathParams, ZTrendsQuery, ZTrendsResponse } from "@/lib/contracts";
import { endpoint } from "./endpoint";

/** Counts per day in a time zone, from the per-run aggregates each rebuild stores. */
export const trendsApi = {
  trends: endpoint({
    id: "getTrends",
    method: "GET",
    path: "/api/v1/trends",
    tag: "Trends",
    summary: "Trends per day",
    description:
      "Per day in the time zone `tz` (every day of the window, days without turns at zero): per reminder key the candidates, delivered and dropped " +
      "reminders with the drop rate; findings by code with their rate per 1,000 turns; Reviewer violations; the follow-up rate (contract §8, " +
      "association not effect) per copy version. Served from the 15-minute buckets each run's rebuild stores, so a run counts once its rebuild ran.",
    auth: "key",
    query: ZTrendsQuery,
    paramDescriptions: {
      tz: "An IANA time zone (e.g. `Europe/Paris`, `Asia/Kolkata`, `UTC`) whose days the counts are grouped by. Default `UTC`.",
      from: "The first day, `YYYY-MM-DD` in `tz`. Default: 13 days before `to`.",
      to: "The last day (included), `YYYY-MM-DD` in `tz`; at most 366 days after `from`. Default: today in `tz`.",
      copyVersion: "Only runs whose copy has this version id (an id from `copyVersions`).",
      policyVersion: "Only runs whose policy has this version id (an id from `policyVersions`).",
      experiment: "Only runs whose run.started named this experiment id (contract §10).",
      arm: "Only runs whose run.started named this arm of `experiment` (needs `experiment`).",
    },
    responses: [{ status: 200, description: "The days of the window.", schema: ZTrendsResponse }],
  }),
  effectiveness: endpoint({
    id: "getEffectiveness",
    method: "GET",
    path: "/api/v1/effectiveness",
    tag: "Trends",
    summary: "Delivered vs. dropped follow-up and reminder fatigue",
    description:
      "Over the days of the window (contract §10): per reminder key, stage and kind, the delivered and the dropped reminders with how many of each " +
      "were followed up (§8's rule, the same window for both), both rates with 95% Wilson intervals and their difference with Newcombe's interval, " +
      "over every context stage and per context stage at the reminder's turn; reminder fatigue per key (repeats, turns between them, bytes and their " +
      "share of request capacity, runs one key dominated); and per-day totals for charts. An association, never an effect: dropping happens when the " +
      "request is full, and a dropped reminder is often delivered on the next turn. Served from the counts each run's rebuild stores.",
    auth: "key",
    query: ZTrendsQuery,
    paramDescriptions: {
      tz: "An IANA time zone whose days the window is made of. Default `UTC`.",
      from: "The first day, `YYYY-MM-DD` in `tz`. Default: 13 days before `to`.",
      to: "The last day (included), `YYYY-MM-DD` in `tz`; at most 366 days after `from`. Default: today in `tz`.",
      copyVersion: "Only runs whose copy has this version id (as the trends name versions).",
      policyVersion: "Only runs whose policy has this version id.",
      experiment: "Only runs whose run.started named this experiment id (contract §10): its arms' rows, every arm together.",
      arm: "Only runs whose run.started named this arm of `experiment` (needs `experiment`).",
    },
    responses: [{ status: 200, description: "The window's rows, fatigue and days.", schema: ZEffectivenessResponse }],
  }),
  runEffectiveness: endpoint({
    id: "getRunEffectiveness",
    method: "GET",
    path: "/api/v1/runs/{runId}/effectiveness",
    tag: "Trends",
    summary: "One run's delivered vs. dropped follow-up and reminder fatigue",
    description:
      "The rows and fatigue of GET /api/v1/effectiveness for one run (contract §10), over all its turns: per reminder key, stage and kind its " +
      "delivered and dropped reminders and how many of each were followed up, with intervals (the run's reminders are not independent: read " +
      "them as a description of the run); per key its deliveries, repeats, turns between repeats, bytes and their share of request capacity, " +
      "and whether the key took most of the run's reminder bytes. From the counts the run's last rebuild stored (`rebuiltEvents` of `eventCount`).",
    auth: "key",
    pathParams: ZRunPathParams,
    responses: [{ status: 200, description: "The run's rows and fatigue.", schema: ZRunEffectivenessResponse }],
    errors: { 404: "No run of that id in the key's project." },
  }),
};
