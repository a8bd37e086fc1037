import { createPolicyVersionRoute, listPolicyVersionsRoute } from "@/lib/server/http/version-routes";

export const GET = listPolicyVersionsRoute;
export const POST = createPolicyVersionRoute;
