import "server-only";
import { trendsApi } from "@/lib/endpoints/trends";
import { getTrends } from "@/lib/server/trends/trends";
import { defineLoader } from "./define-loader";

/** Per day of the asked time zone, the stored trend buckets of the window summed. */
export const trendsLoader = defineLoader(trendsApi.trends, (db, projectId, { query }) => getTrends(db, projectId, query));
