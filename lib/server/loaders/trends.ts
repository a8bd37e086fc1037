import "server-only";
import { ZTrendsQuery } from "@/lib/contracts";
import { getTrends } from "@/lib/server/trends/trends";
import { defineLoader } from "./define-loader";

/** GET /api/v1/trends: per day of the asked time zone, the stored trend buckets of the window summed. */
export const trendsLoader = defineLoader({
  query: ZTrendsQuery,
  load: (db, projectId, { query }) => getTrends(db, projectId, query),
});
