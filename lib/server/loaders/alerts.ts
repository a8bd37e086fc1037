import "server-only";
import { alertsApi } from "@/lib/endpoints/alerts";
import { listAlerts } from "@/lib/server/alerts/alert-list";
import { listRules } from "@/lib/server/alerts/rules";
import { defineLoader } from "./define-loader";

/** The project's alert rules and where each stands. */
export const alertRulesLoader = defineLoader(alertsApi.rules, async (db, projectId) => ({ rules: await listRules(db, projectId) }));

/** A page of the alerts the rules fired, newest first, with their deliveries. */
export const alertListLoader = defineLoader(alertsApi.alerts, (db, projectId, { query }) => listAlerts(db, projectId, query));
