import { z } from "zod";
import { ZAuditEntry, ZAuditExportQuery, ZAuditList, ZAuditQuery } from "@/lib/contracts";
import { endpoint } from "./endpoint";

/** The project's audit log: who changed what, when, from where, before → after. */
export const auditApi = {
  list: endpoint({
    id: "listAuditEntries",
    method: "GET",
    path: "/api/v1/audit",
    tag: "Audit log",
    summary: "List audit log entries",
    description:
      "One page of the project's audit log, newest first: every change to copy and policy versions and the project's defaults, " +
      "experiments, API keys, and every deleted comment, with who made it (the key, and whether through a browser session), when, " +
      "from which address, and what it was before and after. Entries are never changed or deleted. Follow `nextCursor` for the next page.",
    auth: "key",
    query: ZAuditQuery,
    paramDescriptions: {
      action: "Only this action (`<target>.<verb>`, e.g. `copyVersion.makeDefault`).",
      target: "Only entries about this kind of target.",
      targetId: "Only entries about this target (its id): its history.",
      actorKeyId: "Only changes made with this API key (its id).",
      from: "Only changes at or after this instant (RFC 3339 with a zone).",
      to: "Only changes before this instant.",
    },
    responses: [{ status: 200, description: "A page of entries.", schema: ZAuditList }],
  }),
  export: endpoint({
    id: "exportAuditEntries",
    method: "GET",
    path: "/api/v1/audit/export",
    tag: "Audit log",
    summary: "Export the audit log",
    description:
      "Every entry over the list's filters, newest first, streamed as a download: CSV (one line per entry; `before` and `after` as " +
      "JSON text; text a spreadsheet would run as a formula is prefixed with `'`) or a JSON array of entries. `cursor` and `limit` are " +
      'ignored. A failure after the download started ends it with an error marker (CSV: a last line `#error,<code>,<message>`; JSON: a last element `{"error":…}` and no closing `]`).',
    auth: "key",
    query: ZAuditExportQuery,
    paramDescriptions: {
      cursor: "Ignored: the export starts at the newest entry (checked as the list checks it).",
      limit: "Ignored: the export holds every entry (checked as the list checks it).",
    },
    responses: [
      {
        status: 200,
        description: "The download.",
        content: [
          { mediaType: "text/csv", schema: "text" },
          { mediaType: "application/json", schema: z.array(ZAuditEntry) },
        ],
      },
    ],
  }),
};
