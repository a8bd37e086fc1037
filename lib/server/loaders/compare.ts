import "server-only";
import { compareApi } from "@/lib/endpoints/compare";
import { compareRuns } from "@/lib/server/compare/compare-runs";
import { defineLoader } from "./define-loader";

/** Where two runs decided differently, and both decisions at the turn found. */
export const compareLoader = defineLoader(compareApi.compare, (db, projectId, { query }) => compareRuns(db, projectId, query));
