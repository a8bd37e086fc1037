import "server-only";
import { auditApi } from "@/lib/endpoints/audit";
import { listAudit } from "@/lib/server/audit/audit-log";
import { defineLoader } from "./define-loader";

/** A page of the project's audit log, newest first, over the query's filters. */
export const auditListLoader = defineLoader(auditApi.list, (db, projectId, { query }) => listAudit(db, projectId, query));
