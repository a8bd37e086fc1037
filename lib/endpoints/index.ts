import { alertsApi } from "./alerts";
import { auditApi } from "./audit";
import { commentsApi } from "./comments";
import { compareApi } from "./compare";
import { endpointsIn, type AnyEndpoint } from "./endpoint";
import { experimentsApi } from "./experiments";
import { ingestApi } from "./ingest";
import { keysApi } from "./keys";
import { membersApi } from "./members";
import { replayApi } from "./replay";
import { reviewerApi } from "./reviewer";
import { reviewsApi } from "./reviews";
import { runsApi } from "./runs";
import { serviceApi } from "./service";
import { trendsApi } from "./trends";
import { copyVersionsApi, policyVersionsApi } from "./versions";
import { viewsApi } from "./views";

export {
  alertsApi,
  auditApi,
  commentsApi,
  compareApi,
  copyVersionsApi,
  experimentsApi,
  ingestApi,
  keysApi,
  membersApi,
  policyVersionsApi,
  replayApi,
  reviewerApi,
  reviewsApi,
  runsApi,
  serviceApi,
  trendsApi,
  viewsApi,
};
export * from "./endpoint";

/**
 * Every endpoint of `/api/v1`, in the reference's order: a group added to a file above is served,
 * documented and checked with no other change (lib/server/http/api.ts, lib/api-docs/document.ts).
 */
export const ENDPOINTS: readonly AnyEndpoint[] = endpointsIn(
  ingestApi,
  runsApi,
  compareApi,
  commentsApi,
  reviewerApi,
  reviewsApi,
  trendsApi,
  alertsApi,
  viewsApi,
  copyVersionsApi,
  policyVersionsApi,
  experimentsApi,
  auditApi,
  membersApi,
  keysApi,
  replayApi,
  serviceApi,
);
