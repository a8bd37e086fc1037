import { createPolicyVersionRoute, listPolicyVersionsRoute } from "@/lib/server/http/version-routes";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export const GET = listPolicyVersionsRoute;
export const POST = createPolicyVersionRoute;
