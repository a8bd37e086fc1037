import "server-only";
import { alertsApi } from "@/lib/endpoints/alerts";
import { exportAlerts } from "@/lib/server/alerts/alert-list";
import { createRule, deleteRule, updateRule } from "@/lib/server/alerts/rules";
import { answer, endpointRoute } from "./endpoint-route";

/** Alert rules' changes (admins) and the alerts' download; the lists are loaders' (lib/server/loaders/alerts.ts). */
export const createAlertRuleRoute = endpointRoute(alertsApi.create, async ({ input, db, auth }) =>
  answer(201, await createRule(db, auth, input.body)),
);

export const updateAlertRuleRoute = endpointRoute(alertsApi.update, ({ input, db, auth }) =>
  updateRule(db, auth, input.path.id, input.body),
);

export const deleteAlertRuleRoute = endpointRoute(alertsApi.delete, async ({ input, db, auth }) => {
  await deleteRule(db, auth, input.path.id);
  return { deleted: true as const };
});

export const exportAlertsRoute = endpointRoute(alertsApi.export, ({ input, db, auth }) => {
  const { format, ruleId } = input.query;
  return exportAlerts(db, auth.projectId, { ruleId }, format);
});
