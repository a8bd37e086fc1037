import "server-only";
import { auditApi } from "@/lib/endpoints/audit";
import { exportAudit } from "@/lib/server/audit/audit-log";
import { endpointRoute } from "./endpoint-route";

/** The audit log over the list's filters as a streamed CSV or JSON download (the list itself is a loader's). */
export const exportAuditRoute = endpointRoute(auditApi.export, ({ input, db, auth }) => {
  const { format, ...query } = input.query;
  return exportAudit(db, auth.projectId, query, format);
});
